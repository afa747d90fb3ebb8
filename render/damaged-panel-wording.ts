/** What a panel says in place of its data when its stored data cannot be shown: a planted or damaged row, or a version this build does not know. */
export function damagedPanelSentence(title: string, error: unknown): string {
  const cause = error instanceof Error ? error.message : String(error);
  return `The stored data of the ${title} panel is damaged or of a form this appkernel does not know, so it cannot be shown (${cause}).`;
}
