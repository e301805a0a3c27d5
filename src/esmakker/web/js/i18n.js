// Catalogues: every visible string comes from locales/{lang}.json; game terms stay Danish.
export const LANGS = ["da", "en", "ru"];
let table = {};
let current = "da";
// The language last asked for; an earlier one that loads later is dropped.
let wanted = null;

export function pickLanguage() {
  const saved = localStorage.getItem("esmakker:lang");
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = tag.slice(0, 2).toLowerCase();
    if (base === "en" || base === "ru") return base;
    if (base === "da") return "da";
  }
  return "da";
}

export async function loadLanguage(lang) {
  wanted = lang;
  const answer = await fetch(`/static/locales/${lang}.json`);
  const loaded = await answer.json();
  if (wanted !== lang) return; // a later choice was made while this one loaded: it wins
  table = loaded;
  current = lang;
  document.documentElement.lang = lang;
  localStorage.setItem("esmakker:lang", lang);
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
}

export function language() {
  return current;
}

export function t(key, params = {}) {
  const text = table[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}
