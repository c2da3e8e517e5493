/** Blank-node labels unique to the activity, so two writes never share one. */
export function bnodePrefix(step: { activity: string }): string {
  return `a${step.activity.slice(-36).replace(/-/g, '')}`;
}
