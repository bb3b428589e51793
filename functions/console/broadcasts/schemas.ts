/** The bodies of the console's broadcasts (docs/api.md, "Broadcasts"). */
import { createBroadcastSchema } from '../../domain/broadcasts';
import { compileValidator } from '../../domain/validation';

// Checks of the bodies (functions/domain/validation.ts); precompiled in the bundle.
export const validCreateBroadcastBody = compileValidator(createBroadcastSchema);
