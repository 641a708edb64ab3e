// bcrypt, as GoTrue stores passwords: hashes from crypt(pw, gen_salt('bf'))
// in SQL seeds ($2a$) and from here ($2b$) verify the same way.
import bcrypt from 'bcryptjs';

// GoTrue uses bcrypt.DefaultCost.
const COST = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

// Compared against when the user does not exist, so an unknown e-mail takes as
// long to refuse as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash || !/^\$2[aby]\$/.test(hash)) {
    dummyHash ??= bcrypt.hash('not-a-real-password', COST);
    await bcrypt.compare(password, await dummyHash);
    return false;
  }
  return bcrypt.compare(password, hash);
}
