import { Select, Stack, TextInput, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { z } from 'zod';
import { ENVIRONMENTS } from '../../../shared/constants';
import { OptionalUrlSchema } from '../../../shared/schemas/common';
import { CreateProjectInputSchema, EnvironmentSchema, type Project } from '../../../shared/schemas/projects';
import { environmentLabel } from '../../lib/format';

/** The create and settings forms: the server's own rules (name required after trimming, a valid URL or empty). */
export const ProjectFormSchema = z.object({
  name: CreateProjectInputSchema.shape.name,
  description: z.string().trim().max(1000, { error: 'Description must be at most 1000 characters' }),
  website_url: OptionalUrlSchema,
  environment: EnvironmentSchema,
});

// A type alias (not an interface) so it fits the form resolver's Record<string, unknown>.
export type ProjectFormValues = {
  name: string;
  description: string;
  website_url: string;
  environment: Project['environment'];
};

export const emptyProjectForm: ProjectFormValues = { name: '', description: '', website_url: '', environment: 'development' };

/** Form values → the API's fields: trimmed, empty optional fields as null. */
export function toProjectInput(values: ProjectFormValues) {
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    website_url: values.website_url.trim() || null,
    environment: values.environment,
  };
}

export const ENVIRONMENT_OPTIONS = ENVIRONMENTS.map((value) => ({ value, label: environmentLabel(value) }));

export function ProjectFormFields({ form, autoFocus = false }: { form: UseFormReturnType<ProjectFormValues>; autoFocus?: boolean }) {
  return (
    <Stack gap="md">
      <TextInput
        label="Project name"
        placeholder="My app"
        required
        maxLength={100}
        data-autofocus={autoFocus || undefined}
        {...form.getInputProps('name')}
      />
      <Textarea
        label="Description"
        placeholder="What is this project for?"
        autosize
        minRows={2}
        maxRows={6}
        maxLength={1000}
        {...form.getInputProps('description')}
      />
      <TextInput
        label="Website URL"
        type="url"
        placeholder="https://example.com"
        description="Links in your end users' e-mails (verification, password reset) point here."
        {...form.getInputProps('website_url')}
      />
      <Select
        label="Environment"
        data={ENVIRONMENT_OPTIONS}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        {...form.getInputProps('environment')}
      />
    </Stack>
  );
}
