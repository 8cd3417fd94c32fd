export declare const PAGE_CONTENT_SECURITY_POLICY: string;
export declare const HOSTED_PAGE_CONTENT_SECURITY_POLICY: string;
export declare function securityHeaders(contentSecurityPolicy: string): Record<string, string>;
