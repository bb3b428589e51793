/**
 * The values the document's examples use for what exists only in a given
 * installation (an application, its profiles, users, tokens). They look like
 * the real thing, so examples read well and validate; the contract test
 * (test/integration/contract.test.ts) replaces every string equal to one of
 * them with a real value of the stack it talks to before sending an example.
 * Any other value of an example is sent as written.
 */
export const placeholders = {
  /** The application of the key the request is sent with. */
  appId: 'app_5f0c9a3e7b21d48e6c10',
  /** A profile that exists, holds a push subscription, and has events. */
  profileId: 'player-1842',
  /** A profile that never existed. */
  unknownProfileId: 'player-0000',
  /** An anonymous visitor profile of the push SDK. */
  visitorProfileId: 'urm-anon-0b6f4a52-3f61-4f0e-9d3e-5a3c1c2f7e11',
  /** A push subscription of a browser, as the SDK stores it. */
  pushToken:
    '{"endpoint":"https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH","keys":{"p256dh":"BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM","auth":"tBHItJI5svbpez7KI4CCXg"}}',
  /** An enabled email channel of the application. */
  channelId: 'transactional',
  /** An enterprise user signed up in the application. */
  userId: 'usr_7d1e4b9a2c6f08e35b7a91c4',
  /** A sign-in token just issued and not used yet. */
  signInToken: 'q3Jv1Kx9cFh2bWnT8sYpL0dR6mE4uGiA7oZkVtXwBfC',
  /** The id of a live portal session (the cookie's value). */
  sessionId: 'Zp4Lw8Rt2Yc6Nv0Bx3Hm7Kq1Sj5Fg9Da2Ue6Io0Tl4W',
  /** An origin of the application's site, allowed for the browser key. */
  siteOrigin: 'https://www.casino.example',
  /** An affiliate's email and username, not registered yet. */
  affiliateEmail: 'ada.lovelace@affiliates.example',
  affiliateUsername: 'ada_plays',
  /** A tracking link of an approved affiliate of the application, leading to its site origin. */
  linkId: 'Qx7RmT2vLp9K',
  /** An affiliate registered in the application. */
  affiliateId: 'aff_8f3a01c2d4e5b6a79081',
  /** An affiliate id no affiliate of the application has. */
  unknownAffiliateId: 'aff_00000000000000000000',
  /** An email not signed up in the application yet. */
  enterpriseEmail: 'grace.hopper@casino.example',
  /** A segment of the application (not archived). */
  segmentId: 'active-depositors',
  /** A segment id the application does not have. */
  unknownSegmentId: 'no-such-segment',
  /** An email template of the application. */
  templateId: 'welcome-bonus',
  /** A live journey of the application entered through the API. */
  journeyId: 'vip-welcome',
  /** A journey id the application does not have. */
  unknownJourneyId: 'no-such-journey',
} as const;

export type Placeholder = keyof typeof placeholders;

/** Another application's id: sent as written, it is never the key's application. */
export const otherAppId = 'app_0c1d2e3f405162738495';
