/** Builds Camunda's logger-style message: `ENGINE-<component><id> <text>`. */
export function engineMessage(component: string, id: string, text: string): string {
  return `ENGINE-${component}${id} ${text}`;
}
