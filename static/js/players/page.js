// The account pages' passkey buttons: sign up, sign in, add a passkey. The ceremony itself
// is @simplewebauthn/browser's (static/vendor/simplewebauthn, a classic script before this
// one); the server checks every answer (py_webauthn). Without passkey support the buttons
// say so and the password forms still work.
const webauthn = globalThis.SimpleWebAuthnBrowser;
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
