// Export, import and forget: the player's data as a file, checked whole before anything
// changes (data-file.js); forgetting clears this browser's store.
import { fmt } from "../text.js";
import { exportFile, ImportError, parseFile } from "./data-file.js";

const $ = (id) => document.getElementById(id);

export function wireData(app, { reload }) {
  const say = (text) => { $("data-message").textContent = text; };

  $("export-data").addEventListener("click", async () => {
    const log = await app.store.loadLog();
    const blob = new Blob([exportFile(app.records, log, Date.now())], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `hyakunin-trainer-${new Date().toISOString().slice(0, 10)}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    say(app.msg.exported);
  });

  const input = $("import-data");
  $("import-button").addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const file = input.files[0];
    input.value = "";
    if (!file) return;
    let parsed;
    try {
      parsed = parseFile(await file.text());
    } catch (error) {
      say(app.msg.importErrors[error instanceof ImportError ? error.reason : "not-json"]);
      return;
    }
    await app.store.replace(parsed.records, parsed.log);
    await reload();
    say(fmt(app.msg.imported, { n: parsed.records.size }));
  });

  $("forget-data").addEventListener("click", async () => {
    if (!window.confirm(app.msg.forgetConfirm)) return;
    app.drill?.stop();
    await app.store.clear();
    await reload();
    say(app.msg.forgotten);
  });
}
