"""Browser-test helper: a recording stand-in for the Screen Wake Lock API."""

# The Screen Wake Lock API, recorded: headless Chromium has none to hold.
FAKE_WAKE_LOCK = """
window.__wake = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: async (type) => {
    window.__wake.push("request " + type);
    return { addEventListener() {}, release: async () => { window.__wake.push("release"); } };
  },
} });
"""
