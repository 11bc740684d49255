/** Validation of one auto-ads `ConfigObj` against the seed's types (wire names kept). */
import type {
  AdConstraintsWire,
  AnchorWire,
  AutoAdsConfigWire,
  PlacementWire,
} from '../src/protocol.ts';
import { invalidField } from './errors.ts';
import {
  readArray,
  readBoolean,
  readInteger,
  readMap,
  readObject,
  readOptional,
  readString,
} from './fields.ts';

const spacingPattern = /^\d+(\.\d+)?(px|vp)$/;

function readNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalidField(field, 'a number of 0 or more', value);
  }
  return value;
}

const attributeNames = { pattern: /^(type|layout|data-[a-z0-9-]+)$/, text: 'type, layout or data-* names' };
/** The anchor ad may also carry its size and side (PRODUCT 4.3, 4.6). */
const stickyAttributeNames = {
  pattern: /^(type|layout|height|width|sticky|data-[a-z0-9-]+)$/,
  text: 'type, layout, height, width, sticky or data-* names',
};

function readAttributes(value: unknown, field: string, names = attributeNames): Record<string, string> {
  const attributes = readMap(value, field, (item, itemField) => readString(item, itemField, { max: 2000 }));
  for (const name of Object.keys(attributes)) {
    if (!names.pattern.test(name)) throw invalidField(field, names.text, name);
  }
  return attributes;
}

function readAnchor(value: unknown, field: string, depth = 0): AnchorWire {
  const object = readObject(value, field);
  if (depth > 10) throw invalidField(field, 'at most 10 nested sub anchors', 'more');
  const index = readOptional(object['index'], (v) => readInteger(v, `${field}.index`));
  const all = readOptional(object['all'], (v) => readBoolean(v, `${field}.all`));
  const minC = readOptional(object['min_c'], (v) => readInteger(v, `${field}.min_c`));
  const sub = readOptional(object['sub'], (v) => readAnchor(v, `${field}.sub`, depth + 1));
  return {
    selector: readString(object['selector'], `${field}.selector`, { max: 1000 }),
    ...(index === null ? {} : { index }),
    ...(all === null ? {} : { all }),
    ...(minC === null ? {} : { min_c: minC }),
    ...(sub === null ? {} : { sub }),
  };
}

function readPlacement(value: unknown, field: string): PlacementWire {
  const object = readObject(value, field);
  const anchor = readAnchor(object['anchor'], `${field}.anchor`);
  const pos = object['pos'];
  if (pos !== 1 && pos !== 2 && pos !== 3 && pos !== 4) {
    throw invalidField(`${field}.pos`, 'one of 1 (BEFORE), 2 (FIRST_CHILD), 3 (LAST_CHILD), 4 (AFTER)', pos);
  }
  if (object['type'] !== 1) throw invalidField(`${field}.type`, '1 (BANNER)', object['type']);
  const style = readOptional(object['style'], (v) => {
    const styleObject = readObject(v, `${field}.style`);
    const top = readOptional(styleObject['top_m'], (m) => readNumber(m, `${field}.style.top_m`));
    const bottom = readOptional(styleObject['bot_m'], (m) => readNumber(m, `${field}.style.bot_m`));
    return { ...(top === null ? {} : { top_m: top }), ...(bottom === null ? {} : { bot_m: bottom }) };
  });
  const attributes = readOptional(object['attributes'], (v) => readAttributes(v, `${field}.attributes`));
  return {
    anchor,
    pos,
    type: 1,
    ...(style === null ? {} : { style }),
    ...(attributes === null ? {} : { attributes }),
  };
}

function readSpacing(value: unknown, field: string): string {
  const spacing = readString(value, field, { max: 20 });
  if (!spacingPattern.test(spacing)) throw invalidField(field, 'a spacing such as 300px or 1.5vp', value);
  return spacing;
}

function readConstraints(value: unknown, field: string): AdConstraintsWire {
  const object = readObject(value, field);
  const subsequent = readOptional(object['subsequentMinSpacing'], (v) =>
    readArray(v, `${field}.subsequentMinSpacing`, (item, itemField) => {
      const rule = readObject(item, itemField);
      return {
        adCount: readInteger(rule['adCount'], `${itemField}.adCount`),
        spacing: readSpacing(rule['spacing'], `${itemField}.spacing`),
      };
    }),
  );
  return {
    initialMinSpacing: readSpacing(object['initialMinSpacing'], `${field}.initialMinSpacing`),
    ...(subsequent === null ? {} : { subsequentMinSpacing: subsequent }),
    maxAdCount: readInteger(object['maxAdCount'], `${field}.maxAdCount`),
  };
}

export function parseAutoAdsConfig(value: unknown, field: string): AutoAdsConfigWire {
  const object = readObject(value, field);
  const attributes = readOptional(object['attributes'], (v) => readAttributes(v, `${field}.attributes`));
  const constraints = readOptional(object['adConstraints'], (v) => readConstraints(v, `${field}.adConstraints`));
  const optIn = readOptional(object['optInStatus'], (v) =>
    readArray(v, `${field}.optInStatus`, (item, itemField) => readInteger(item, itemField)),
  );
  const sticky = readOptional(object['stickyAdAttributes'], (v) => readAttributes(v, `${field}.stickyAdAttributes`, stickyAttributeNames));
  const reason = readOptional(object['noConfigReason'], (v) => readString(v, `${field}.noConfigReason`, { max: 500 }));
  return {
    placements: readArray(object['placements'], `${field}.placements`, readPlacement, 500),
    ...(attributes === null ? {} : { attributes }),
    ...(constraints === null ? {} : { adConstraints: constraints }),
    ...(optIn === null ? {} : { optInStatus: optIn }),
    ...(sticky === null ? {} : { stickyAdAttributes: sticky }),
    ...(reason === null ? {} : { noConfigReason: reason }),
  };
}
