/** The one-time link an invited user opens. The token rides in the fragment, which browsers never send to servers or put in logs. */
export const invitationUrl = (publicBaseUrl: string, token: string): string => `${publicBaseUrl}/dashboard/invite#${token}`;
