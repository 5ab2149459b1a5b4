import { patchBodyValidation, scimPatch, ScimError as PatchError, type ScimPatchOperation } from 'scim-patch';
import { ScimError } from './scim-errors.js';
import { PATCH_SCHEMA } from './scim-resources.js';

/** The operations of a PATCH body, checked with scim-patch's validation (400 invalidSyntax otherwise). */
export function patchOperationsOf(body: unknown): ScimPatchOperation[] {
  const patch = body as { schemas?: unknown; Operations?: unknown };
  if (!patch || typeof patch !== 'object' || !Array.isArray(patch.schemas) || !patch.schemas.includes(PATCH_SCHEMA)) {
    throw new ScimError(400, `A PATCH body has schemas [${PATCH_SCHEMA}] and Operations`, 'invalidSyntax');
  }
  try {
    patchBodyValidation(patch as Parameters<typeof patchBodyValidation>[0]);
  } catch (error) {
    throw new ScimError(400, error instanceof Error ? error.message : 'Invalid PATCH operations', 'invalidSyntax');
  }
  return patch.Operations as ScimPatchOperation[];
}

/** Applies PATCH operations to a resource with scim-patch; its refusals are SCIM's 400s (invalidPath, noTarget, invalidValue). */
export function patched<T extends object>(resource: T, operations: ScimPatchOperation[]): T {
  try {
    return scimPatch(resource as never, operations, { mutateDocument: false, treatMissingAsAdd: true }) as T;
  } catch (error) {
    if (error instanceof PatchError) {
      const type = error.scimCode === 'noTarget' || error.scimCode === 'invalidPath' ? error.scimCode : 'invalidValue';
      throw new ScimError(400, error.message, type);
    }
    throw error;
  }
}
