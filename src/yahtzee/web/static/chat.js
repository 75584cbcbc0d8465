// The table's chat (kept by the server with the table) and the turn timer.

import { $, el, playerClass, state } from "./state.js";
import { send } from "./net.js";
import { t, tn } from "./i18n.js";

function chatLine(message) {
  const line = el("p", { class: `chat-line ${playerClass(message.seat || 0)}` });
  line.append(el("span", { class: "dot", "aria-hidden": "true" }), el("strong", {}, `${t("{name}:", { name: message.name || "?" })} `), document.createTextNode(message.text));
  return line;
}
export function drawChat(lines) {
  $("chat-log").replaceChildren(...lines.map(chatLine));
  $("chat-log").scrollTop = $("chat-log").scrollHeight;
}
export function addChatLine(message) {
  const log = $("chat-log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  log.append(chatLine(message));
  while (log.children.length > 200) log.firstChild.remove();
  if (atEnd) log.scrollTop = log.scrollHeight;
}
export function drawChatBox() {
  const spectator = state.seat === null;
  const watching = state.spectators;
  $("watchers").textContent = watching ? tn("{n} watching", "{n} watching", watching) : "";
  $("chat-form").hidden = spectator;
  $("chat-note").hidden = !spectator;
  $("send").disabled = !state.online;
}
export function wireChat() {
  $("chat-form").onsubmit = (event) => {
    event.preventDefault();
    const message = $("chat-text").value.trim();
    if (message && send({ type: "chat", text: message })) $("chat-text").value = "";
  };
}

export function drawTimer() {
  const timer = $("timer");
  const live = state.game && state.game.phase !== "over" && state.deadline;
  timer.hidden = !live;
  if (!live) return;
  const left = Math.max(0, Math.ceil(state.deadline - Date.now() / 1000));
  timer.textContent = timeLeft(left);
  timer.classList.toggle("urgent", left <= 10);
}

// Time left, as a clock under an hour ("4:05"), else in hours or days ("7 h 12 min", "2 d 5 h").
function timeLeft(left) {
  if (left < 3600) return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  const hours = Math.floor(left / 3600);
  if (hours < 24) return t("{hours} h {minutes} min", { hours, minutes: String(Math.floor((left % 3600) / 60)).padStart(2, "0") });
  return t("{days} d {hours} h", { days: Math.floor(hours / 24), hours: hours % 24 });
}
