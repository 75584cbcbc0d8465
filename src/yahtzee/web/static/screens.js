// Which screen the page shows, and entering a table (its seat or spectator key from this
// device's storage, then the connection). The screens' own modules (lobby.js, daily.js,
// over.js) and app.js all take these from here, so none of them imports app.js.

import { $, readJson, saved, state } from "./state.js";
import { connect, newTableLink, showBanner } from "./net.js";
import { isDeviceTable } from "./local_table.js";
import { t } from "./i18n.js";

export function enterTable(tableId, focusKey) {
  state.table = tableId;
  const mine = saved(tableId);
  const watch = localStorage.getItem(`yahtzee-watch:${tableId}`);
  state.links = readJson(localStorage, `yahtzee-links:${tableId}`);
  if (mine && mine.token) { state.token = mine.token; state.seat = mine.seat; } else if (watch) state.watch = watch;
  const local = isDeviceTable(tableId);  // a game of this device: its local room, no server
  if (!state.token && !state.watch) {
    showScreen(null);
    showBanner(local ? t("This game is not on this device (it was played in another browser, or deleted).")
      : t("You have no seat at this table on this device. Open your invite or spectator link, or start a new table."), [newTableLink()]);
    return;
  }
  state.refocus = focusKey;
  $("turn").textContent = local ? t("Opening the game...") : t("Connecting...");
  connect();
}

export function showScreen(id) {
  for (const name of ["create", "join", "lobby", "play", "over", "my-games", "account"]) $(name).hidden = name !== id;
  $("daily").hidden = id !== "create";
  document.body.dataset.screen = id || "none";
  const slot = { lobby: "chat-slot-lobby", play: "chat-slot-play", over: "chat-slot-over" }[id];
  const chat = $("chat");
  chat.hidden = !slot;
  if (slot && chat.parentElement.id !== slot) {
    const typing = chat.contains(document.activeElement) ? document.activeElement : null;
    $(slot).append(chat);
    if (typing) typing.focus();
  }
  if (state.screen !== id) window.scrollTo(0, 0);
  state.screen = id;
}
