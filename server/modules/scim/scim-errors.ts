import { AppError } from '../../errors.js';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.12's scimType values this server answers. */
export type ScimType = 'invalidFilter' | 'uniqueness' | 'invalidSyntax' | 'invalidPath' | 'invalidValue' | 'mutability' | 'noTarget' | 'tooMany';

/** A refusal in SCIM's terms: its HTTP status, a detail safe to show, and the RFC's scimType where it names one. */
export class ScimError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

export interface ScimErrorBody {
  schemas: [typeof SCIM_ERROR_SCHEMA];
  status: string;
  detail: string;
  scimType?: ScimType;
}

export function scimErrorBody(status: number, detail: string, scimType?: ScimType): ScimErrorBody {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(status), detail, ...(scimType && { scimType }) };
}

/** The house's AppError in SCIM's terms (a 409 is a uniqueness clash, a 422 a value SCIM calls invalid). */
export function scimErrorOfAppError(error: AppError): ScimError {
  switch (error.code) {
    case 'CONFLICT':
      return new ScimError(409, error.detail, 'uniqueness');
    case 'NOT_FOUND':
      return new ScimError(404, error.detail);
    case 'UNAUTHORIZED':
      return new ScimError(401, error.detail);
    case 'FORBIDDEN':
      return new ScimError(403, error.detail);
    case 'TOO_MANY_REQUESTS':
      return new ScimError(429, error.detail);
    case 'PAYLOAD_TOO_LARGE':
      return new ScimError(413, error.detail);
    case 'UNPROCESSABLE_CONTENT':
      return new ScimError(400, error.detail, 'invalidValue');
    default:
      return new ScimError(400, error.detail, 'invalidSyntax');
  }
}
