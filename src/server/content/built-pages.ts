/**
 * The built pages' replaceable parts (src/lib/site-fragments.ts: the toast, the logo walls, the opening
 * hours), kept current in the memory table of the built files (docs/decisions/0019): the public pages'
 * renderer (public-pages.ts) fetches the fragments at each render and this swaps them into every built
 * page that has them. A page whose bytes did not change keeps its entry (the build's best compressed
 * copies, its Last-Modified); a changed one is compressed quickly now and at the best setting
 * afterwards, one page at a time, in the background.
 */
import {
  FRAGMENT_NAMES,
  fragmentPath,
  hasFragments,
  setCurrentFragments,
  substituteFragments,
  type FragmentName,
} from '../../lib/site-fragments.ts';
import { renderedFile, type CachedFile } from '../http/index.ts';
import { getLogger } from '../log.ts';
import type { FetchedPage } from './public-pages.ts';

export interface BuiltPagesOptions {
  /** The memory table of src/server/http/static-files.ts. */
  files: Map<string, CachedFile>;
  fetchPage: (path: string) => Promise<FetchedPage>;
  /** The paths the content renderer put into the table (not built pages). */
  isContent: (path: string) => boolean;
  compression?: 'best' | 'quick';
}

/** The fragments' current renderings, and the built pages with them in place. */
export class BuiltPages {
  /** The current renderings of the fragments. */
  private fragments = new Map<FragmentName, string>();
  /** The built pages with replaceable parts, as built, by path. */
  private readonly originals = new Map<string, CachedFile>();
  /** The copies this process made of them. */
  private readonly made = new WeakSet<CachedFile>();
  private upgrading = Promise.resolve();
  private stopped = false;

  private readonly options: BuiltPagesOptions;

  constructor(options: BuiltPagesOptions) {
    this.options = options;
  }

  /** Fetches the fragments; one that fails keeps its last rendering. */
  async renderFragments(): Promise<void> {
    const log = getLogger();
    const next = new Map(this.fragments);
    for (const name of FRAGMENT_NAMES) {
      try {
        const page = await this.options.fetchPage(fragmentPath(name));
        if (page.status === 200) next.set(name, page.body.toString('utf8').trim());
        else log.warn({ fragment: name, status: page.status }, 'fragment did not render');
      } catch (error) {
        log.error({ err: error, fragment: name }, 'fragment render failed');
      }
    }
    this.fragments = next;
    setCurrentFragments(this.fragments);
  }

  /** A page's bytes with the current fragments in place (an on-demand page fetched for the table). */
  fill(body: Buffer): Buffer {
    const html = body.toString('utf8');
    return hasFragments(html) ? Buffer.from(substituteFragments(html, this.fragments), 'utf8') : body;
  }

  /** Every built page with a replaceable part, with the current fragments in place. */
  async substitute(at: Date): Promise<void> {
    const { files } = this.options;
    for (const [path, file] of files) {
      if (
        this.options.isContent(path) ||
        this.made.has(file) ||
        this.originals.has(path) ||
        !file.contentType.startsWith('text/html')
      )
        continue;
      if (hasFragments(file.bodies.identity.toString('utf8'))) this.originals.set(path, file);
    }
    const results = new Map<CachedFile, CachedFile>();
    const upgrades: Array<{ file: CachedFile; bytes: Buffer }> = [];
    for (const [path, original] of this.originals) {
      let result = results.get(original);
      if (!result) {
        const bytes = Buffer.from(
          substituteFragments(original.bodies.identity.toString('utf8'), this.fragments),
          'utf8',
        );
        const current = files.get(path);
        if (bytes.equals(original.bodies.identity)) result = original;
        else if (current && this.made.has(current) && current.bodies.identity.equals(bytes)) result = current;
        else {
          result = await renderedFile(bytes, original.contentType, original.pageHeaders, at, 'quick');
          this.made.add(result);
          if (this.options.compression !== 'quick') upgrades.push({ file: result, bytes });
        }
        results.set(original, result);
      }
      if (this.stopped) return;
      files.set(path, result);
    }
    if (upgrades.length) this.recompress(upgrades, at);
  }

  /** The quick copies at the best setting, one after another; a page replaced since is skipped. */
  private recompress(upgrades: Array<{ file: CachedFile; bytes: Buffer }>, at: Date): void {
    const { files } = this.options;
    const current = (file: CachedFile) => [...this.originals.keys()].some((path) => files.get(path) === file);
    this.upgrading = this.upgrading
      .then(async () => {
        for (const { file, bytes } of upgrades) {
          if (this.stopped) return;
          // A page replaced since by a newer change is not worth the CPU.
          if (!current(file)) continue;
          const best = await renderedFile(bytes, file.contentType, file.pageHeaders, at, 'best');
          if (best.bodies.br) file.bodies.br = best.bodies.br;
          if (best.bodies.gzip) file.bodies.gzip = best.bodies.gzip;
        }
      })
      .catch((error: unknown) => getLogger().warn({ err: error }, 'recompression of pages failed'));
  }

  /** Stops swapping and waits for the recompression under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.upgrading;
  }
}
