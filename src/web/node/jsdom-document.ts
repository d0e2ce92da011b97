/**
 * The Node entry point of the web environment's page: an empty HTML document from jsdom (the only
 * importer of jsdom). The page's counterpart is a same-origin iframe's document. Scripts never run:
 * the sites' pages are HTML the environment draws itself.
 */
import { JSDOM } from 'jsdom';

/** A fresh empty document (its own window) for one web environment. */
export function createJsdomDocument(): Document {
  return new JSDOM('<!doctype html><html lang="en"><head><title></title></head><body></body></html>', { url: 'about:blank' }).window.document;
}
