import { TRPCClientError } from '@trpc/client';
import type { StepUpMethod } from '../../shared/schemas/step-up';
import { ApiError, stepUpMethodsIn } from './api-client';

/**
 * A refusal that asks the signed-in user to prove who they are again (401 with step_up_required): the
 * proofs the account can give, whichever client made the call; null for every other failure.
 */
export function stepUpMethodsOf(failure: unknown): StepUpMethod[] | null {
  if (failure instanceof TRPCClientError) return stepUpMethodsIn(failure.data);
  // A REST call's refusal keeps them from the answer's body.
  return failure instanceof ApiError ? failure.stepUpMethods : null;
}

/** The user closed the step-up dialog: the change they asked for did not happen, and that is not an error. */
export class StepUpCancelled extends Error {
  constructor() {
    super('Step-up cancelled');
    this.name = 'StepUpCancelled';
  }
}
