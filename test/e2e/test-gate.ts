/** Markup shared by the runtime e2e tests. */

/** A test consent provider installed from the page: `window.testGate.set('allow'|'deny')`. */
export const TEST_GATE = `<page-consent id="gate"></page-consent><script>
  (self.PAGE = self.PAGE || []).push((page) => {
    let decision = 'deny';
    const listeners = new Set();
    window.testGate = { set(next) { decision = next; listeners.forEach((l) => l()); } };
    page.setConsentProvider({
      whenChecked: async () => {},
      decide: () => decision,
      getPolicyState: async () => (decision === 'allow' ? 'sufficient' : 'insufficient'),
      snapshot: () => ({ state: decision === 'allow' ? 'accepted' : 'rejected', consentString: 'CS1', purposeConsents: {}, isConsentRequired: true }),
      subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
    });
  });
</script>`;
