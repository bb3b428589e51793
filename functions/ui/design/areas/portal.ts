/** Rules only the portal pages need, on top of the design system's components (joined into the one stylesheet by ../stylesheet.ts). */
export const portalCss = ``;
