/** The API docs page's reference section, linked from the footer (`/api-docs#api-reference`). */
export const API_REFERENCE_ID = 'api-reference';
