// The account screen (/?account): sign up and in (a passkey first, a password where
// passkeys cannot work), then the account: its name, passkeys, password, sessions (sign
// out here or everywhere), recovery codes, the download of all its data, its deletion.
// The session is an HttpOnly cookie: the page never sees it. A guest who signs up or in
// hands over the seat tokens this browser keeps, so that those seats become the account's.

import { $, el, readJson, state } from "./state.js";
import { showBanner } from "./net.js";
import { showScreen } from "./screens.js";
import { offline } from "./reach.js";
import { createPasskey, passkeysPossible, usePasskey } from "./passkey.js";
import { currentLanguage, t, tn } from "./i18n.js";

const BASE = "/api/account";

// Any method (the page's api() speaks GET and POST): the answer's JSON, or an Error in words.
async function call(method, path, body) {
  const response = await fetch(path, {
    method, headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  if (response.status !== 204) { try { data = await response.json(); } catch { data = null; } }
  if (!response.ok) {
    const error = new Error((data && data.message) || t("Refused ({status}).", { status: response.status }));
    error.code = data && data.code;
    throw error;
  }
  return data;
}

// Every seat token this browser keeps (its tables, the seats passed around on it, its daily games).
export function heldTokens() {
  const tokens = new Set();
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i) || "";
    if (key.startsWith("yahtzee:device-") || key.startsWith("yahtzee-pad:device-")) continue;  // (this device's own games: never the server's)
    const kept = key.startsWith("yahtzee:") || key.startsWith("yahtzee-pad:") || key.startsWith("yahtzee-daily:")
      ? readJson(localStorage, key) : null;
    for (const item of Array.isArray(kept) ? kept : [kept]) if (item && typeof item.token === "string") tokens.add(item.token);
  }
  return [...tokens].slice(0, 200);
}

// The top bar's link: the account's name when signed in.
export async function drawAccountLink() {
  try { state.account = (await call("GET", BASE)).account; } catch { state.account = null; }
  $("account-link").textContent = state.account ? state.account.name : t("Sign in");
  return state.account;
}

const note = (text) => { $("account-note").textContent = text; };
const failed = (error) => { note(error.message); showBanner(error.message, []); };

export async function setupAccount() {
  showScreen("account");
  document.title = t("Account - Yahtzee");
  $("turn").textContent = t("Your account");
  wireSignedOut();
  wireSignedIn();
  await drawAccount();
}

async function drawAccount() {
  let me = null;
  try { me = await call("GET", BASE); } catch { me = null; }
  state.account = me && me.account;
  $("account-link").textContent = me ? me.account.name : t("Sign in");
  $("signed-out").hidden = !!me;
  $("signed-in").hidden = !me;
  if (!me && offline()) note(t("Accounts need a connection: sign in once this phone is online. Games on this phone are kept on it meanwhile."));
  if (!me) return;
  $("account-title").textContent = t("Your account: {name}", { name: me.account.name });
  $("account-name").value = me.account.name;
  $("passkey-list").replaceChildren(...me.passkeys.map((k) => {
    const remove = el("button", { type: "button", class: "small", "aria-label": t("Remove the passkey {label}", { label: k.label }) }, t("Remove"));
    remove.onclick = () => act(() => call("DELETE", `${BASE}/passkeys/${encodeURIComponent(k.id)}`), t("The passkey was removed."));
    const item = el("li");
    item.append(el("span", {}, k.used_at ? t("{label}, added {added}, last used {used}", { label: k.label, added: day(k.created_at), used: day(k.used_at) })
      : t("{label}, added {added}", { label: k.label, added: day(k.created_at) })), remove);
    return item;
  }));
  if (!me.passkeys.length) $("passkey-list").append(el("li", {}, t("No passkey yet.")));
  $("passkey-add").hidden = !passkeysPossible();
  $("password-state").textContent = me.password ? t("You have a password: set a new one here.") : t("No password yet: set one to sign in where passkeys cannot work.");
  $("session-list").replaceChildren(...me.sessions.map((s) =>
    el("li", { class: s.current ? "me" : "" }, t("{browser}, signed in {signed}, last seen {seen}", { browser: s.current ? t("This browser") : agentName(s.agent), signed: day(s.created_at), seen: day(s.seen_at) }))));
  $("codes-left").textContent = tn("{n} unused recovery code left.", "{n} unused recovery codes left.", me.recovery_codes_left);
}

const day = (stamp) => new Intl.DateTimeFormat(currentLanguage(), { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit", second: "2-digit" }).format(new Date(stamp * 1000));
function agentName(agent) {
  const known = ["Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux", "CrOS"].find((k) => agent && agent.includes(k));
  return known ? t("A browser on {system}", { system: known }) : t("Another browser");
}

async function act(work, done) {
  try { await work(); note(done); await drawAccount(); } catch (error) { failed(error); }
}

function showCodes(codes) {
  $("codes").replaceChildren(...codes.map((c) => el("li", {}, c)));
  $("codes-box").hidden = false;
  $("codes-kept").focus();
}

async function signedIn(made, text) {
  note(text);
  if (made.recovery_codes) showCodes(made.recovery_codes);
  await drawAccount();
}

function wireSignedOut() {
  const possible = passkeysPossible();
  $("passkey-sign-in").hidden = !possible;
  $("passkey-sign-up").hidden = !possible;
  $("no-passkeys").hidden = possible;
  $("passkey-sign-in").onclick = async () => {
    try {
      const begun = await call("POST", `${BASE}/passkeys/sign-in/options`, {});
      const credential = await usePasskey(begun.options);
      const made = await call("POST", `${BASE}/passkeys/sign-in`, { ceremony: begun.ceremony, credential, seats: heldTokens() });
      await signedIn(made, t("Signed in as {name}.", { name: made.account.name }));
    } catch (error) { failed(error); }
  };
  $("sign-in-form").onsubmit = async (event) => {
    event.preventDefault();
    const name = $("sign-in-name").value;
    const secret = $("sign-in-password").value;
    const code = /^[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5}$/.test(secret.trim()) && secret.length <= 11;
    try {
      const made = await call("POST", `${BASE}/sign-in`, { name, ...(code ? { recovery_code: secret } : { password: secret }), seats: heldTokens() });
      $("sign-in-password").value = "";
      await signedIn(made, t("Signed in as {name}.", { name: made.account.name }));
    } catch (error) { failed(error); }
  };
  $("sign-up-form").onsubmit = async (event) => {
    event.preventDefault();
    const name = $("sign-up-name").value;
    try {
      const begun = await call("POST", `${BASE}/passkeys/sign-up/options`, { name });
      const credential = await createPasskey(begun.options);
      const made = await call("POST", `${BASE}/passkeys/sign-up`, { ceremony: begun.ceremony, name, credential, seats: heldTokens() });
      await signedIn(made, t("Welcome, {name}: your account is made, with this device's passkey.", { name: made.account.name }));
    } catch (error) { failed(error); }
  };
  $("password-sign-up").onclick = async () => {
    const name = $("sign-up-name").value;
    try {
      const made = await call("POST", `${BASE}/sign-up`, { name, password: $("sign-up-password").value, seats: heldTokens() });
      $("sign-up-password").value = "";
      await signedIn(made, t("Welcome, {name}: your account is made.", { name: made.account.name }));
    } catch (error) { failed(error); }
  };
}

function wireSignedIn() {
  $("rename-form").onsubmit = (event) => {
    event.preventDefault();
    act(() => call("PATCH", BASE, { name: $("account-name").value }), t("Your name was changed."));
  };
  $("passkey-add").onclick = () => act(async () => {
    const begun = await call("POST", `${BASE}/passkeys/options`, {});
    const credential = await createPasskey(begun.options);
    await call("POST", `${BASE}/passkeys`, { ceremony: begun.ceremony, credential });
  }, t("The passkey was added."));
  $("password-form").onsubmit = (event) => {
    event.preventDefault();
    act(async () => { await call("POST", `${BASE}/password`, { password: $("new-password").value }); $("new-password").value = ""; }, t("Your password was set."));
  };
  $("sign-out").onclick = () => act(() => call("POST", `${BASE}/sign-out`), t("Signed out."));
  $("sign-out-everywhere").onclick = () => act(() => call("POST", `${BASE}/sign-out-everywhere`), t("Signed out on every device."));
  $("new-codes").onclick = async () => {
    try { showCodes((await call("POST", `${BASE}/recovery-codes`, {})).recovery_codes); await drawAccount(); } catch (error) { failed(error); }
  };
  $("codes-kept").onclick = () => { $("codes-box").hidden = true; $("codes").replaceChildren(); };
  $("delete-sure").onchange = () => { $("delete-account").disabled = !$("delete-sure").checked; };
  $("delete-account").onclick = () => act(async () => {
    await call("DELETE", BASE);
    $("delete-sure").checked = false;
    $("delete-account").disabled = true;
  }, t("Your account was deleted. Your games stay as they were played."));
}
