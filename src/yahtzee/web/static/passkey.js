// Passkeys (WebAuthn) in the browser: the server's options (WebAuthn's JSON form, binary
// fields base64url) into what navigator.credentials takes, and the browser's answer back
// into that JSON form. Passkeys need a secure context (https, or plain http on localhost) and a
// host name: on an IP address (a plain-http LAN page) the page offers the password.

import { t } from "./i18n.js";

const decode = (text) => {
  const plain = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(plain + "=".repeat((4 - (plain.length % 4)) % 4)), (c) => c.charCodeAt(0)).buffer;
};
const encode = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

export function passkeysPossible() {
  const ip = /^[\d.]+$/.test(location.hostname) || location.hostname.includes(":") || location.hostname.startsWith("[");
  return !!window.PublicKeyCredential && window.isSecureContext && !ip;
}

const withIds = (list) => (list || []).map((c) => ({ ...c, id: decode(c.id) }));

function creation(options) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(options);
  return { ...options, challenge: decode(options.challenge), user: { ...options.user, id: decode(options.user.id) },
    excludeCredentials: withIds(options.excludeCredentials) };
}

function request(options) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(options);
  return { ...options, challenge: decode(options.challenge), allowCredentials: withIds(options.allowCredentials) };
}

function asJson(credential) {
  if (credential.toJSON) return credential.toJSON();
  const r = credential.response;
  const response = { clientDataJSON: encode(r.clientDataJSON) };
  if (r.attestationObject) Object.assign(response, { attestationObject: encode(r.attestationObject), transports: r.getTransports ? r.getTransports() : [] });
  else Object.assign(response, { authenticatorData: encode(r.authenticatorData), signature: encode(r.signature), userHandle: r.userHandle ? encode(r.userHandle) : null });
  return { id: credential.id, rawId: encode(credential.rawId), type: credential.type, response,
    clientExtensionResults: credential.getClientExtensionResults(), authenticatorAttachment: credential.authenticatorAttachment };
}

// A new passkey for these creation options: its answer (JSON), or an Error in words.
export async function createPasskey(options) {
  try { return asJson(await navigator.credentials.create({ publicKey: creation(options) })); }
  catch (error) { throw new Error(refusal(error)); }
}

// A passkey's answer to these request options (JSON), or an Error in words.
export async function usePasskey(options) {
  try { return asJson(await navigator.credentials.get({ publicKey: request(options) })); }
  catch (error) { throw new Error(refusal(error)); }
}

function refusal(error) {
  if (error && error.name === "NotAllowedError") return t("The passkey was not used (cancelled, or it took too long): try again.");
  if (error && error.name === "InvalidStateError") return t("This device has a passkey for this account already.");
  return t("The passkey did not work here: {error}", { error: error && error.message ? error.message : error });
}
