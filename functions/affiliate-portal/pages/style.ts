/**
 * The portal's one stylesheet, the design system's (portalStylesheet), inline
 * in every page and allowed by its SHA-256 in the Content-Security-Policy (no
 * 'unsafe-inline').
 */
import { styleHash } from '../../http/html';
import { portalStylesheet } from '../../ui/design/stylesheet';

export const portalCss = portalStylesheet;

/** What a portal page may inline at most: it comes with every page, uncached. */
export const portalCssBudgetBytes = 30 * 1024;

/** The CSP source that allows exactly this stylesheet. */
export const portalCssHash = styleHash(portalCss);
