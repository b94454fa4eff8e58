// The site's service worker (platform/pages/offline.py): the pages listed below open with no
// network once visited, with the scripts, styles and fonts they used. Nothing else is kept.
const VERSION = "{{ version }}";
const PAGES = new Set({{ pages_json|safe }});
const STATIC = "{{ static_url }}";
const CACHE = `hyakunin-offline-${VERSION}`;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith("hyakunin-offline-") && key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

const keep = (url) => url.origin === self.location.origin && (PAGES.has(url.pathname) || url.pathname.startsWith(STATIC));

// A page asks for itself and what it loaded before this worker took over (its first visit).
self.addEventListener("message", (event) => {
  if (event.data?.type !== "keep" || !Array.isArray(event.data.urls)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const raw of event.data.urls.slice(0, 200)) {
      let url;
      try { url = new URL(raw, self.location.origin); } catch { continue; }
      if (!keep(url) || (url.pathname.startsWith(STATIC) && await cache.match(url, { ignoreVary: true }))) continue;
      try {
        const response = await fetch(url, { credentials: "same-origin" });
        if (response.ok) await cache.put(url, response);
      } catch { /* offline already: keep what there is */ }
    }
    event.source?.postMessage({ type: "kept" });
  })());
});

async function page(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const copy = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
    if (copy) return copy;
    throw error;
  }
}

async function asset(request, event) {
  const cache = await caches.open(CACHE);
  const copy = await cache.match(request, { ignoreVary: true });
  const fresh = fetch(request).then(async (response) => {
    if (response.ok) await cache.put(request, response.clone());
    return response;
  });
  if (copy) {
    event.waitUntil(fresh.catch(() => {}));
    return copy;
  }
  return fresh;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!keep(url)) return; // play screens, the API, anything else: straight to the network
  event.respondWith(PAGES.has(url.pathname) && request.mode === "navigate" ? page(request) : asset(request, event));
});
