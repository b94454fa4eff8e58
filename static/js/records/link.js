// "View the record" on a result screen, one line in each game's result view:
// `showRecordLink(box)` once the match is over. The link's text comes from the page
// (records/_link.html); the address goes through the match's path (/play/<id>/record/), so a
// seated player's cookie comes along and the record page can offer them "delete" and "keep".

export function showRecordLink(box, matchId = null) {
  const template = document.getElementById("record-link-template");
  const config = document.getElementById("match-config");
  const id = matchId ?? (config ? JSON.parse(config.textContent).match : null);
  if (!box || !id || !template || box.querySelector("[data-record-link]")) return null;
  const node = template.content.firstElementChild.cloneNode(true);
  node.querySelector("[data-record-link]").href = `/play/${encodeURIComponent(id)}/record/`;
  box.append(node);
  return node;
}
