// Small text helpers shared by the play screens.

/** Fill Django-style "%(name)s" placeholders (the strings come from the template catalogues). */
export const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key] ?? ""));

/** Capitalise the first letter (colour names start sentences in English; no effect in ja/zh). */
export const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
