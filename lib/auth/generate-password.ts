/**
 * A strong password to hand to someone (the people page's "Generate", `cli user add` / `reset-password` without
 * --password): 4 groups of 5 characters from 56 that cannot be mistaken for one another (no 0/O/o, 1/l/I), about
 * 116 bits of entropy — read aloud or typed from a note without ambiguity. Web Crypto, so the browser and the CLI
 * share it.
 */
const ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/** Bytes at or above this are rejected so every character is equally likely (256 is not a multiple of 56). */
const LIMIT = 256 - (256 % ALPHABET.length);

export function generatePassword(groups = 4, size = 5): string {
  const chars: string[] = [];
  while (chars.length < groups * size) {
    for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(32))) {
      if (byte < LIMIT && chars.length < groups * size) chars.push(ALPHABET[byte % ALPHABET.length] as string);
    }
  }
  const out: string[] = [];
  for (let i = 0; i < groups; i++) out.push(chars.slice(i * size, (i + 1) * size).join(""));
  return out.join("-");
}
