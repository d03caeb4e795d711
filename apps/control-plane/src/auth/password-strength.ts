import { Injectable } from '@nestjs/common';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { AppError } from '../common/app-error';

/**
 * zxcvbn's score: 0 (< 10^3 guesses) … 4 (≥ 10^10). Below 2 (< 10^6 guesses) falls to an online
 * attack that the login throttle only slows: "password", "12345678", "letmein123", "P@ssw0rd",
 * and the account's own email with a digit. Passphrases ("correct horse battery") score 4.
 */
const MIN_SCORE = 2;

/** zxcvbn names the pattern it found; these are the sentences the user reads. */
const REASONS: Record<string, string> = {
  topTen: 'it is one of the ten most common passwords',
  topHundred: 'it is one of the hundred most common passwords',
  common: 'it is a very common password',
  similarToCommon: 'it is a common password with small changes',
  wordByItself: 'a single word is easy to guess',
  namesByThemselves: 'names on their own are easy to guess',
  commonNames: 'common names are easy to guess',
  userInputs: 'it contains your email address',
  straightRow: 'it is a row of keys on the keyboard',
  keyPattern: 'it is a short keyboard pattern',
  simpleRepeat: 'it repeats one character',
  extendedRepeat: 'it repeats a short pattern',
  sequences: 'it is a sequence such as abcdefgh or 12345678',
  recentYears: 'it is mostly a recent year',
  dates: 'it is mostly a date',
};

type Checker = Pick<ZxcvbnFactory, 'check'>;

/**
 * Refuses easily guessed passwords at sign-up (400 `weak_password`). The dictionaries (~1 MB)
 * are loaded on the first check, not at boot, and kept.
 */
@Injectable()
export class PasswordStrength {
  private checker: Promise<Checker> | null = null;

  /** `field`: the request field that holds the password, named in `details`. */
  async assertStrong(password: string, email: string, field = 'password'): Promise<void> {
    const result = (await this.load()).check(password, [email, email.split('@')[0] ?? '', 'flowgate']);
    if (result.score >= MIN_SCORE) return;
    const reason = (result.feedback.warning && REASONS[result.feedback.warning]) || 'it is too easy to guess';
    const message = `This password is too easy to guess: ${reason}. Use a longer one, e.g. three or four unrelated words.`;
    throw new AppError('weak_password', message, [{ path: field, message }]);
  }

  private load(): Promise<Checker> {
    this.checker ??= (async () => {
      const [{ ZxcvbnFactory }, common] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]);
      return new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
    })();
    return this.checker;
  }
}
