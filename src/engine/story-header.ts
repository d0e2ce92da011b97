/**
 * Every address in a Z-code header checked against the file at load, so a
 * damaged story is refused with the address named instead of being stored and hanging at step 1.
 * Follows the Z-Machine Standard 1.1: §1.1 (memory map: dynamic memory below the static base, high
 * memory not overlapping it), §11 (header), §3.3 (abbreviations), §10.2/§12 (object table, globals),
 * §13 (dictionary), §11.1.7 (header extension). Versions 3, 4, 5, 8 (6 and 7's routine and string
 * offsets do not apply). Imports nothing but the engine's errors.
 */
import { StoryFileError } from './errors.ts';

const hex = (n: number): string => `0x${n.toString(16).padStart(4, '0')}`;

/** A field of the header: what it is called and the header byte it sits at. */
interface Field {
  name: string;
  at: number;
}

function refuse(field: Field, address: number, why: string): never {
  throw new StoryFileError('bad_header', `The story file's header is damaged: its ${field.name} (header byte ${hex(field.at).replace(/^0x00/, '0x')}) is ${hex(address)}, ${why}. The file cannot run; get a fresh copy.`);
}

/**
 * Throws StoryFileError `bad_header` naming the first header address that points outside the file
 * (or outside the memory region the Standard puts it in), or `truncated` when the header's file
 * length (0x1a) exceeds the bytes present. `zcode` is ≥ 64 bytes of a supported version whose
 * basic layout (addresses ≥ 64, globals and objects below the static base) is already checked.
 * The file's end is the declared length when the header records one (a padded file's tail is not
 * part of the story), else the byte count.
 */
export function checkHeaderAddresses(zcode: Uint8Array, version: number): void {
  const view = new DataView(zcode.buffer, zcode.byteOffset, zcode.byteLength);
  const word = (at: number): number => view.getUint16(at);
  const multiplier = version === 3 ? 2 : version === 8 ? 8 : 4;
  const declaredLength = word(0x1a) * multiplier;
  if (declaredLength > zcode.length) {
    throw new StoryFileError('truncated', `The story file is truncated: ${zcode.length} bytes, but its header (byte 0x1a) says ${declaredLength}.`);
  }
  const end = declaredLength || zcode.length;
  const beyond = `beyond the end of the file (${hex(end)} bytes)`;
  const inFile = (field: Field, address: number, size = 1): void => {
    if (address + size > end) refuse(field, address, size > 1 ? `so its ${size} bytes run ${beyond}` : beyond);
  };

  const staticBase = word(0x0e);
  const staticField = { name: 'static memory base', at: 0x0e };
  if (staticBase > end) refuse(staticField, staticBase, beyond);
  const high = word(0x04);
  const highField = { name: 'high memory base', at: 0x04 };
  inFile(highField, high);
  // High memory below the static base breaks Standard §1.1.3's layout but real story files do it
  // (Jericho's trinity.z4: 0x57ff below 0x935e) and run, so it is not refused.
  inFile({ name: 'initial program counter', at: 0x06 }, word(0x06));

  const globals = word(0x0c);
  if (globals + 480 > staticBase) refuse({ name: 'global variables table', at: 0x0c }, globals, `so its 240 variables run past dynamic memory (static base ${hex(staticBase)})`);
  const objects = word(0x0a);
  const defaultsBytes = version <= 3 ? 62 : 126;
  if (objects + defaultsBytes > staticBase) refuse({ name: 'object table', at: 0x0a }, objects, `so its property defaults run past dynamic memory (static base ${hex(staticBase)})`);

  checkDictionary(zcode, version, word(0x08), inFile);
  checkAbbreviations(view, word(0x18), end, inFile);
  if (version >= 5) {
    const terminating = word(0x2e);
    if (terminating) inFile({ name: 'terminating characters table', at: 0x2e }, terminating);
    const alphabet = word(0x34);
    if (alphabet) inFile({ name: 'alphabet table', at: 0x34 }, alphabet, 78);
    const extension = word(0x36);
    if (extension) {
      const extensionField = { name: 'header extension table', at: 0x36 };
      inFile(extensionField, extension, 2);
      inFile(extensionField, extension, 2 + 2 * word(extension));
    }
  }
}

type InFile = (field: Field, address: number, size?: number) => void;

/**
 * §13.1–13.3: separators, entry length, a signed entry count, then the entries. Each entry starts
 * with the word's encoded text, 4 bytes in versions 1–3 and 6 in later ones (§13.3), so a shorter
 * entry length is refused (the game could recognise no word: every command would be "not a verb").
 */
function checkDictionary(zcode: Uint8Array, version: number, dictionary: number, inFile: InFile): void {
  const field = { name: 'dictionary', at: 0x08 };
  inFile(field, dictionary, 1);
  const separators = zcode[dictionary]!;
  inFile(field, dictionary, 4 + separators);
  const entryLength = zcode[dictionary + 1 + separators]!;
  const textBytes = version <= 3 ? 4 : 6;
  if (entryLength < textBytes) {
    refuse(field, dictionary, `whose entries are ${entryLength} bytes long, shorter than the ${textBytes} bytes of a word's encoded text (Z-Machine Standard §13.3), so the game could recognise no word`);
  }
  const raw = (zcode[dictionary + 2 + separators]! << 8) | zcode[dictionary + 3 + separators]!;
  const count = raw & 0x8000 ? 0x10000 - raw : raw;
  inFile(field, dictionary, 4 + separators + count * entryLength);
}

/** §3.3: 96 word addresses (× 2), each of a string inside the file. */
function checkAbbreviations(view: DataView, table: number, end: number, inFile: InFile): void {
  if (table === 0) return;
  const field = { name: 'abbreviations table', at: 0x18 };
  inFile(field, table, 192);
  for (let i = 0; i < 96; i++) {
    const address = view.getUint16(table + 2 * i) * 2;
    if (address >= end) refuse({ name: `abbreviation ${i}`, at: 0x18 }, address, `beyond the end of the file (${hex(end)} bytes)`);
  }
}
