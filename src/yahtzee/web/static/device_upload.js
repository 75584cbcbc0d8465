// The finished games of this device kept in the account (POST /api/me/offline-games):
// offered while the page is online and signed in ("Keep your 3 offline games in your
// account": one button), each upload's answer shown. A game the server refuses (it breaks
// a rule, it is not over, its id is taken) stays on the device, marked so that it is not
// offered again until it changes; "already kept" (200) is done as a new one (201) is.

import { $, el, readJson } from "./state.js";
import { deviceGamesHere, localTables } from "./device.js";
import { t, tn } from "./i18n.js";

const REFUSED = "yahtzee-upload-refused";  // local storage: {id: {updated, message}}
const DONE = new Set([200, 201]);
const KEPT_BACK = new Set(["illegal_game", "not_over", "id_taken", "unknown_rules", "bad_request", "too_large"]);
let signedIn = false;
let later = false;  // "Not now": not offered again while this page is open
let busy = false;

function refusals() {
  const kept = readJson(localStorage, REFUSED);
  return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
}

/** Why the server would not keep device game `game` (its message), while it is unchanged. */
export function refusalOf(game) {
  const refused = refusals()[game.id];
  return refused && refused.updated === game.updated ? String(refused.message) : null;
}

function refuse(game, message) {
  localStorage.setItem(REFUSED, JSON.stringify({ ...refusals(), [game.id]: { updated: game.updated, message } }));
}

/** The finished games of this device the account could keep. */
export function uploadable(games) {
  return games.filter((g) => g.status === "finished" && !g.uploaded && refusalOf(g) === null);
}

/** "Ann, Bot 2 (level 3)": a device game's players. */
export function playersOf(game) {
  return (game.players || []).map((p) => (typeof p === "string" ? p : p && p.name) || "?").join(", ");
}

/** Offer the upload when the account may keep games now (`signed` when the page learnt it). */
export async function offerUploads(signed = signedIn) {
  signedIn = signed;
  const box = $("upload-offer");
  const games = signedIn && navigator.onLine ? uploadable(await deviceGamesHere()) : [];
  const results = $("upload-results").children.length > 0;
  box.hidden = busy ? box.hidden : (later || games.length === 0) && !results;
  $("upload-keep").hidden = games.length === 0;
  $("upload-later").textContent = games.length ? t("Not now") : t("OK");
  $("upload-offer-text").textContent = games.length
    ? tn("Keep your offline game in your account", "Keep your {n} offline games in your account", games.length) : t("Your offline games");
  return games.length;
}

// One game up: a line saying what the server answered.
async function upload(tables, game) {
  const named = playersOf(game);
  let response;
  let data = null;
  try {
    const body = await tables.uploadBody(game.id);
    response = await fetch("/api/me/offline-games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    try { data = await response.json(); } catch { data = null; }
  } catch (error) {
    const text = response ? t("{players}: {reason}.", { players: named, reason: error.message })
      : t("{players}: the server could not be reached: try again later.", { players: named });
    return { ok: false, stop: !response, text };
  }
  if (DONE.has(response.status) && data && data.game) {
    await tables.markUploaded(game.id, data.game);
    return { ok: true, text: response.status === 200 ? t("{players}: kept in your account (it was already).", { players: named }) : t("{players}: kept in your account.", { players: named }) };
  }
  const message = (data && data.message) || t("Refused ({status}).", { status: response.status });
  if (data && KEPT_BACK.has(data.code)) {
    refuse(game, message);
    return { ok: false, text: t("{players}: {reason} It stays on this phone.", { players: named, reason: message }) };
  }
  return { ok: false, stop: true, text: t("{players}: {reason}", { players: named, reason: message }) };  // (signed out, the server busy: all again later)
}

async function keepAll() {
  if (busy) return;
  busy = true;
  $("upload-keep").disabled = true;
  const list = $("upload-results");
  list.replaceChildren();
  try {
    const tables = await localTables();
    for (const game of uploadable(await deviceGamesHere())) {
      const result = await upload(tables, game);
      list.append(el("li", { class: result.ok ? "kept" : "refused" }, result.text));
      if (result.stop) break;
    }
  } catch (error) {
    list.append(el("li", { class: "refused" }, error.message));
  } finally {
    busy = false;
    $("upload-keep").disabled = false;
    await offerUploads();
    document.dispatchEvent(new Event("yahtzee:device-games"));
  }
}

export function wireUploads() {
  $("upload-keep").onclick = keepAll;
  $("upload-later").onclick = () => {
    later = $("upload-keep").hidden ? later : true;
    $("upload-results").replaceChildren();
    $("upload-offer").hidden = true;
  };
  addEventListener("online", () => offerUploads());
  addEventListener("offline", () => offerUploads());
}
