import type { CamundaFormRef, StartFormData } from '@trellis/core';

/** FormDto of GET …/startForm; contextPath is a process application's path, which Trellis has none of. */
export function toStartFormDto(definitionId: string, form: StartFormData) {
  let key = form.formKey;
  // Generated forms: Camunda points the tasklist at the rendered-form endpoint.
  if (key === null && form.camundaFormRef === null && form.fields.length > 0) {
    key = `embedded:engine://engine/:engine/process-definition/${definitionId}/rendered-form`;
  }
  return {
    key,
    camundaFormRef: toCamundaFormRefDto(form.camundaFormRef),
    contextPath: null,
  };
}

/** Camunda's CamundaFormRef as its DTOs (FormDto, TaskDto) serialize it: key, binding and version. */
export function toCamundaFormRefDto(ref: CamundaFormRef | null | undefined) {
  return ref ? { key: ref.key, binding: ref.binding, version: ref.version } : null;
}
