// Passwords are hashed with Argon2id (@node-rs/argon2, its OWASP-recommended defaults: 19 MiB, t=2, p=1).
import { hash, verify } from '@node-rs/argon2';

export const hashPassword = (password: string): Promise<string> => hash(password);

// Verified against when the email is unknown or has no password yet, so a miss costs as long as a
// wrong password and response times do not tell which addresses have accounts.
const decoy = hash('decoy password that matches nothing');

export async function passwordMatches(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    await verify(await decoy, password);
    return false;
  }
  return verify(passwordHash, password);
}
