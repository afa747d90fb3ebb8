/** The security panel's words, one set for the terminal and the page. */
export const SECURITY_WORDING = {
  noRule: 'No access rule applied to the request.',
  decisions: { allowed: 'Allowed', denied: 'Denied' },
  /** what stands for a rule or a message the decision came without */
  absent: 'none',
} as const;
