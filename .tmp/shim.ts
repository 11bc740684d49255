export const diagnostic = (code: string, expected: string, got: unknown, field?: string) => (self as any).PAGE_RUNTIME.diagnostic(code, expected, got, field);
