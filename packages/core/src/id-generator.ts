import { randomUUID } from 'node:crypto';

/** Creates the ids of new rows. */
export interface IdGenerator {
  next(): string;
}

export const uuidGenerator: IdGenerator = { next: () => randomUUID() };
