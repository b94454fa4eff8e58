// Share a record: copy its address, or the system's share sheet where there is one.

export function wireShare(root, { S, title }) {
  const url = root.querySelector("[data-share-url]").value;
  const status = root.querySelector("[data-share-status]");
  root.querySelector("[data-copy-link]").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = S.copied;
    } catch {
      root.querySelector("[data-share-url]").select();
      status.textContent = S.copyFailed;
    }
  });
  const share = root.querySelector("[data-share]");
  if (typeof navigator.share === "function") {
    share.hidden = false;
    share.addEventListener("click", () => navigator.share({ title, url }).catch(() => {}));
  }
}
