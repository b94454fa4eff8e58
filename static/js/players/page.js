// The account pages' passkey buttons: sign up, sign in, add a passkey. The ceremony itself
// is @simplewebauthn/browser's (static/vendor/simplewebauthn, a classic script before this
// one); the server checks every answer (py_webauthn). Without passkey support the buttons
// say so and the password forms still work.
const webauthn = globalThis.SimpleWebAuthnBrowser;

// Signing out or deleting the account first drops this browser's offline copies of pages:
// the service worker (static/js/offline.js) keeps the home, privacy, trainer and game
// pages, whose header names the signed-in player. Static files and the trainer's progress
// (IndexedDB) stay; the pages are kept again at the next visit.
async function forgetOfflinePages() {
  for (const key of await caches.keys()) {
    if (!key.startsWith("hyakunin-offline-")) continue;
    const cache = await caches.open(key);
    for (const request of await cache.keys()) {
      if (!new URL(request.url).pathname.startsWith("/static/")) await cache.delete(request);
    }
  }
}

for (const form of document.querySelectorAll("form[data-forget-offline]")) {
  form.addEventListener("submit", (event) => {
    if (form.dataset.forgotten || !("caches" in globalThis)) return;
    event.preventDefault();
    const go = () => {
      form.dataset.forgotten = "true";
      form.requestSubmit();
    };
    const atMost = new Promise((resolve) => setTimeout(resolve, 1000)); // never block leaving
    Promise.race([forgetOfflinePages(), atMost]).then(go, go);
  });
}
const status = document.querySelector("[data-passkey-status]");
const csrf = () => document.querySelector("input[name=csrfmiddlewaretoken]").value;

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || status.dataset.failed);
  return data;
}

function explain(error) {
  // The browser's own errors (cancelled, timed out, no authenticator) are not for reading.
  if (error instanceof Error && error.name === "Error") return error.message;
  return status.dataset.cancelled;
}

async function ceremony(button, run) {
  status.textContent = "";
  button.disabled = true;
  try {
    const { next } = await run();
    location.assign(next);
  } catch (error) {
    status.textContent = explain(error);
    button.disabled = false;
  }
}

function wire(selector, run) {
  const button = document.querySelector(selector);
  if (!button) return;
  if (!webauthn || !webauthn.browserSupportsWebAuthn()) {
    button.disabled = true;
    status.textContent = status.dataset.unsupported;
    return;
  }
  button.addEventListener("click", () => ceremony(button, () => run(button)));
}

async function register(button, body) {
  const optionsJSON = await post(button.dataset.options, body);
  const credential = await webauthn.startRegistration({ optionsJSON });
  return post(button.dataset.verify, { credential });
}

wire("[data-passkey-signup]", (button) => {
  const handle = document.getElementById("passkey-handle");
  return register(button, { handle: handle.value });
});
wire("[data-passkey-add]", (button) => register(button, {}));
wire("[data-passkey-signin]", async (button) => {
  const optionsJSON = await post(button.dataset.options, {});
  const credential = await webauthn.startAuthentication({ optionsJSON });
  return post(button.dataset.verify, { credential });
});

const handleField = document.getElementById("passkey-handle");
handleField?.addEventListener("keydown", (event) => {
  if (event.key === "Enter") document.querySelector("[data-passkey-signup]")?.click();
});
