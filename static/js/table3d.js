// A CSS 3D table view (no WebGL): drag to rotate, wheel or pinch to zoom,
// "oblique" and "top-down" buttons. Game-agnostic: a game fills the surface.
// If CSS 3D is missing or anything throws, the view hides itself and reports
// the failure; the game's button panel still plays the whole game.

// Both presets reset the zoom, so a preset always shows the whole table.
const OBLIQUE = { tilt: 34, spin: 0, zoom: 1 };
const TOP_DOWN = { tilt: 0, spin: 0, zoom: 1 };
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

export function supports3d() {
  return typeof CSS !== "undefined" && CSS.supports &&
    CSS.supports("transform-style", "preserve-3d") && CSS.supports("perspective", "1px");
}

export class Table3D {
  /**
   * @param {HTMLElement} root  element holding .table-viewport > .table-scene
   * @param {{onFailure?: (kind: string) => void, onReady?: () => void}} hooks
   */
  constructor(root, hooks = {}) {
    this.root = root;
    this.hooks = hooks;
    this.viewport = root.querySelector(".table-viewport");
    this.scene = root.querySelector(".table-scene");
    this.view = { ...OBLIQUE };
    this.pointers = new Map();
    this.failed = false;
  }

  start() {
    try {
      if (!supports3d()) return this.fail("unsupported");
      this.bindButtons();
      this.bindPointer();
      this.apply();
      this.root.classList.add("table-ready");
      this.hooks.onReady?.();
    } catch (error) {
      this.fail("exception");
    }
    return this;
  }

  fail(kind) {
    this.failed = true;
    this.root.classList.add("table-failed");
    this.root.hidden = true;
    this.hooks.onFailure?.(kind);
    return this;
  }

  bindButtons() {
    for (const button of this.root.querySelectorAll("[data-view]")) {
      button.addEventListener("click", () => {
        const preset = button.dataset.view === "top" ? TOP_DOWN : OBLIQUE;
        this.view = { ...this.view, ...preset };
        this.apply();
        for (const other of this.root.querySelectorAll("[data-view]")) other.setAttribute("aria-pressed", String(other === button));
      });
    }
  }

  bindPointer() {
    const vp = this.viewport;
    vp.addEventListener("pointerdown", (e) => {
      if (e.target.closest("button, a, [data-no-drag]")) return;
      vp.setPointerCapture(e.pointerId);
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    });
    vp.addEventListener("pointermove", (e) => {
      const last = this.pointers.get(e.pointerId);
      if (!last) return;
      if (this.pointers.size === 1) {
        this.view.spin += (e.clientX - last.x) * 0.4;
        this.view.tilt = clamp(this.view.tilt - (e.clientY - last.y) * 0.3, 0, 70);
      } else if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.entries()].map(([id, p]) => (id === e.pointerId ? { x: e.clientX, y: e.clientY } : p));
        const [c, d] = [...this.pointers.values()];
        const before = Math.hypot(c.x - d.x, c.y - d.y) || 1;
        const after = Math.hypot(a.x - b.x, a.y - b.y) || 1;
        this.view.zoom = clamp(this.view.zoom * (after / before), 0.5, 2.2);
      }
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      this.apply();
    });
    const release = (e) => this.pointers.delete(e.pointerId);
    vp.addEventListener("pointerup", release);
    vp.addEventListener("pointercancel", release);
    vp.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.view.zoom = clamp(this.view.zoom * Math.exp(-e.deltaY * 0.0015), 0.5, 2.2);
      this.apply();
    }, { passive: false });
  }

  apply() {
    const { tilt, spin, zoom } = this.view;
    this.scene.style.transform = `scale(${zoom}) rotateX(${tilt}deg) rotateZ(${spin}deg)`;
  }
}
