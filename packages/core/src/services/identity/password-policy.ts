import type { User } from './identity.js';

/** One rule of the password policy, as GET /identity/password-policy shows it. */
export interface PasswordPolicyRule {
  /** Camunda's placeholder, e.g. PASSWORD_POLICY_LENGTH (the web apps translate it). */
  placeholder: string;
  /** The rule's parameters as text (`{ minLength: '10' }`), or null. */
  parameter: Record<string, string> | null;
}

/** A password checked against the policy: the fulfilled rules first, then the violated ones. */
export interface PasswordPolicyResult {
  valid: boolean;
  rules: Array<PasswordPolicyRule & { valid: boolean }>;
}

/** The user data a password must not contain (Camunda's PasswordPolicyUserDataRuleImpl). */
export type PasswordUserData = Pick<User, 'id' | 'firstName' | 'lastName' | 'email'>;

/** A rule of a password policy (Camunda's PasswordPolicyRule): what it shows, and its check. */
export interface PasswordPolicyRuleDefinition extends PasswordPolicyRule {
  /** Whether the password keeps the rule; `user` is null when it is checked without one. */
  passes(password: string, user: PasswordUserData | null): boolean;
}

/** A password policy (Camunda's PasswordPolicy): its rules, checked and shown in this order. */
export interface PasswordPolicy {
  rules: readonly PasswordPolicyRuleDefinition[];
}

// Camunda's PasswordPolicySpecialCharacterRuleImpl.SPECIALCHARACTERS
const SPECIAL_CHARACTERS = ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

const atLeast = (placeholder: string, name: string, minimum: number, counts: (character: string) => boolean): PasswordPolicyRuleDefinition => ({
  placeholder: `PASSWORD_POLICY_${placeholder}`,
  parameter: { [name]: String(minimum) },
  passes: (password) => [...password].filter(counts).length >= minimum,
});

/**
 * Camunda's DefaultPasswordPolicyImpl: no user data, at least 10 characters, one lower case letter,
 * one upper case letter, one digit and one special character, in this order.
 */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { rules: [
  {
    placeholder: 'PASSWORD_POLICY_USER_DATA',
    parameter: null,
    passes(password, user) {
      if (password === '' || user === null) return true;
      const candidate = password.toUpperCase();
      return ![user.id, user.firstName, user.lastName, user.email].some((value) => value !== null && value !== '' && candidate.includes(value.toUpperCase()));
    },
  },
  { placeholder: 'PASSWORD_POLICY_LENGTH', parameter: { minLength: '10' }, passes: (password) => password.length >= 10 },
  atLeast('LOWERCASE', 'minLowerCase', 1, (character) => /\p{Ll}/u.test(character)),
  atLeast('UPPERCASE', 'minUpperCase', 1, (character) => /\p{Lu}/u.test(character)),
  atLeast('DIGIT', 'minDigit', 1, (character) => /\p{Nd}/u.test(character)),
  atLeast('SPECIAL', 'minSpecial', 1, (character) => SPECIAL_CHARACTERS.includes(character)),
] };

export function passwordPolicyRules(policy: PasswordPolicy): PasswordPolicyRule[] {
  return policy.rules.map(({ placeholder, parameter }) => ({ placeholder, parameter }));
}

/** Camunda's IdentityServiceImpl.checkPasswordAgainstPolicy. */
export function checkAgainstPolicy(policy: PasswordPolicy, password: string, user: PasswordUserData | null): PasswordPolicyResult {
  const results = policy.rules.map((rule) => ({ placeholder: rule.placeholder, parameter: rule.parameter, valid: rule.passes(password, user) }));
  return { valid: results.every((rule) => rule.valid), rules: [...results.filter((rule) => rule.valid), ...results.filter((rule) => !rule.valid)] };
}
