import { isKubeApiError } from '../errors';

// Classifiers for API answers the engine reacts to. The server says these only in its message,
// so the matching lives here, once.

/** An update the server refuses because it would change an immutable field (e.g. a Job's template). */
export const isImmutableFieldError = (e: unknown): boolean =>
  isKubeApiError(e) &&
  e.status === 422 &&
  /field is immutable|updates to .* are forbidden|may not be changed/i.test(e.message);

/** Adding our controller reference to an object another controller already controls. */
export const isOtherControllerError = (e: unknown): boolean =>
  isKubeApiError(e) &&
  e.status === 422 &&
  /Only one reference can have Controller set to true/i.test(e.message);
