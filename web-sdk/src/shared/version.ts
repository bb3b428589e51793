declare const __URM_SDK_VERSION__: string | undefined;

/** The SDK's version, set by web-sdk/build.ts (`dev` when the sources run unbundled, in tests). */
export const SDK_VERSION: string = typeof __URM_SDK_VERSION__ === 'string' ? __URM_SDK_VERSION__ : 'dev';
