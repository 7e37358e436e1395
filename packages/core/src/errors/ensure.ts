import { NullValueException, ProcessEngineException } from './exceptions.js';

type ExceptionClass = new (message: string) => ProcessEngineException;

/** Camunda's EnsureUtil message: `<message>: <variableName> <condition>` (parts omitted when empty). */
export function ensureMessage(message: string, variableName: string, condition: string): string {
  const subject = [variableName, condition].filter(Boolean).join(' ');
  return message ? `${message}: ${subject}` : subject;
}

/** Returns the value, or throws `<message>: <name> is null` (NullValueException unless another class is given). */
export function ensureNotNull<T>(
  value: T | null | undefined,
  variableName: string,
  message = '',
  ExceptionType: ExceptionClass = NullValueException,
): T {
  if (value === null || value === undefined) throw new ExceptionType(ensureMessage(message, variableName, 'is null'));
  return value;
}

/**
 * Camunda's ensureNotEmpty for text: returns the value, or throws `<message>: <name> is null`, or
 * `… is empty` when it is blank as Java's String.trim sees it (no character above U+0020).
 */
export function ensureNotBlank(
  value: string | null | undefined,
  variableName: string,
  message = '',
  ExceptionType: ExceptionClass = ProcessEngineException,
): string {
  const text = ensureNotNull(value, variableName, message, ExceptionType);
  if (![...text].some((char) => char > ' ')) throw new ExceptionType(ensureMessage(message, variableName, 'is empty'));
  return text;
}

/** Returns the array, or throws `<message>: <name> is empty`. */
export function ensureNotEmpty<T>(
  value: readonly T[] | null | undefined,
  variableName: string,
  message = '',
  ExceptionType: ExceptionClass = ProcessEngineException,
): readonly T[] {
  if (!value || value.length === 0) throw new ExceptionType(ensureMessage(message, variableName, 'is empty'));
  return value;
}
