import type { StartFormData } from '@trellis/core';

/** FormDto of GET …/startForm; contextPath is a process application's path, which Trellis has none of. */
export function toStartFormDto(definitionId: string, form: StartFormData) {
  let key = form.formKey;
  // Generated forms: Camunda points the tasklist at the rendered-form endpoint.
  if (key === null && form.camundaFormRef === null && form.fields.length > 0) {
    key = `embedded:engine://engine/:engine/process-definition/${definitionId}/rendered-form`;
  }
  return {
    key,
    camundaFormRef: form.camundaFormRef
      ? { key: form.camundaFormRef.key, binding: form.camundaFormRef.binding, version: form.camundaFormRef.version }
      : null,
    contextPath: null,
  };
}
