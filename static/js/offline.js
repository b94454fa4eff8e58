// Every page: says when the browser is offline (games need the server), and on the pages
// that open offline (the service worker's list, platform/pages/offline.py) installs the
// worker and has it keep this page and what it loaded.
const note = document.getElementById("offline-note");
const show = () => { if (note) note.hidden = navigator.onLine; };
window.addEventListener("online", show);
window.addEventListener("offline", show);
show();

async function keepThisPage() {
  const script = document.querySelector("script[data-offline-worker]");
  if (!script || !("serviceWorker" in navigator)) return;
  try {
    const registration = await navigator.serviceWorker.register(script.dataset.offlineWorker, { scope: "/" });
    const worker = registration.active ?? (await navigator.serviceWorker.ready).active;
    const urls = [location.href, ...performance.getEntriesByType("resource").map((e) => e.name)];
    worker?.postMessage({ type: "keep", urls });
  } catch {
    /* no worker (private mode, an old browser): the site works online as before */
  }
}

keepThisPage();
