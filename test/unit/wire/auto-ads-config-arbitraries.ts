/**
 * fast-check arbitraries for auto-ads configs: mostly valid, with every field sometimes replaced
 * by a hostile or wrong-typed value, so that properties reach both the kept and the dropped paths.
 */
import fc from 'fast-check';

type Mostly = <T>(valid: fc.Arbitrary<T>) => fc.Arbitrary<unknown>;

/** A valid value most of the time, otherwise anything at all. */
const hostile: Mostly = (valid) => fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: fc.anything() });
const clean: Mostly = (valid) => valid;

/** A ConfigObj-shaped value: with `isHostile`, some fields are wrong, missing or anything at all. */
export function configArbitrary(isHostile: boolean): fc.Arbitrary<unknown> {
  const mostly: Mostly = isHostile ? hostile : clean;
  const selector = mostly(fc.constantFrom('p', 'article p', 'main > section', 'h2:nth-of-type(2)'));

  const anchor = fc.letrec<{ anchor: Record<string, unknown> }>((tie) => ({
    anchor: fc.record(
      {
        selector,
        index: mostly(fc.integer({ min: 0, max: 20 })),
        all: mostly(fc.boolean()),
        min_c: mostly(fc.oneof(fc.integer({ min: 0, max: 500 }), fc.double({ min: 0, max: 500, noNaN: true }))),
        sub: fc.option(tie('anchor'), { nil: undefined, depthSize: 'small', maxDepth: 8 }),
      },
      { requiredKeys: ['selector'] },
    ),
  })).anchor;

  const validName = fc.constantFrom(
    'type',
    'layout',
    'height',
    'width',
    'sticky',
    'data-slot',
    'data-src',
    'data-click-url',
  );
  const badName = fc.constantFrom(
    'data-block-on-consent',
    'data-block-on-consent-purposes',
    'onclick',
    'class',
    '__proto__',
    'constructor',
    'Data-X',
  );
  const attributeName = isHostile ? fc.oneof(validName, badName, fc.string({ maxLength: 12 })) : validName;
  const validValue = fc.oneof(
    fc.constantFrom('https://ads.example/c', '/creative', 'fake'),
    fc.integer(),
    fc.boolean(),
  );
  const badValue = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.constantFrom('javascript:alert(1)', 'data:text/html,x', ' jAvAsCrIpT:1', 'blob:x'),
    fc.anything(),
  );
  const attributeValue = isHostile ? fc.oneof(validValue, badValue) : validValue;

  const attributes = mostly(fc.dictionary(attributeName, attributeValue, { maxKeys: 6 }));

  const spacing = isHostile
    ? fc.constantFrom('0px', '300px', '1vp', '1.5vp', '.5vp', '-1px', '100', '10em', '1e3px')
    : fc.constantFrom('0px', '300px', '1.5vp', '.5vp');

  const constraints = mostly(
    fc.record(
      {
        initialMinSpacing: spacing,
        subsequentMinSpacing: mostly(
          fc.array(fc.record({ adCount: mostly(fc.integer({ min: 0, max: 10 })), spacing }), { maxLength: 3 }),
        ),
        maxAdCount: mostly(fc.integer({ min: 0, max: 20 })),
      },
      { requiredKeys: isHostile ? [] : ['initialMinSpacing', 'maxAdCount'] },
    ),
  );

  const placement = mostly(
    fc.record(
      {
        anchor: mostly(anchor),
        pos: mostly(isHostile ? fc.integer({ min: 0, max: 5 }) : fc.integer({ min: 1, max: 4 })),
        type: mostly(isHostile ? fc.constantFrom(1, 2) : fc.constant(1)),
        style: mostly(fc.record({ top_m: mostly(fc.nat(100)), bot_m: mostly(fc.nat(100)) }, { requiredKeys: [] })),
        attributes,
      },
      { requiredKeys: ['anchor', 'pos', 'type'] },
    ),
  );

  /** A ConfigObj-shaped value (JSON-compatible fields, some of them wrong). */
  return mostly(
    fc.record(
      {
        placements: mostly(fc.array(placement, { maxLength: 5 })),
        attributes,
        adConstraints: constraints,
        optInStatus: mostly(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 })),
        stickyAdAttributes: attributes,
        ...(isHostile ? { noConfigReason: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }) } : {}),
      },
      { requiredKeys: isHostile ? [] : ['placements'] },
    ),
  );
}

/** An attribute map with good and bad names and values. */
export const hostileAttributes = fc.dictionary(
  fc.oneof(
    fc.constantFrom('type', 'data-src', 'data-block-on-consent', '__proto__', 'onclick'),
    fc.string({ maxLength: 12 }),
  ),
  fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.integer(),
    fc.boolean(),
    fc.constantFrom('javascript:alert(1)', 'https://a.example/'),
    fc.anything(),
  ),
  { maxKeys: 8 },
);
