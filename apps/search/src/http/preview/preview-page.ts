import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
import { BaseEnv } from '@rt/platform';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EmbeddingSettings } from '../../embedding/embedding.settings';
import { QueryExpansionSettings } from '../../query/glossary/query-expansion.settings';
import { ServiceSettings } from '../root/service.settings';
import { RankingSettings } from '../../ranking/ranking.settings';
import { rankingTuningOf, travelsRequestSettings } from '../travels/travels-request';
import type { TravelsRequestSettings } from '../travels/travels-request';
import type { PreviewSettings } from './preview-settings';

/** The folder holding the page's bundle (`preview-ui/build.mjs` writes it at build time). */
export const PREVIEW_ASSETS_DIR = Symbol('PREVIEW_ASSETS_DIR');

/** `apps/search/dist/preview-ui`, from this file's folder in `src/` and in `dist/` alike. */
export const DEFAULT_PREVIEW_ASSETS_DIR = join(__dirname, '..', '..', '..', 'dist', 'preview-ui');

/** The files of the bundle the page loads; nothing else in the folder is served. */
export const PREVIEW_ASSET_FILES = ['app.js', 'app.css'] as const;

const SETTINGS_PLACEHOLDER = '"__PREVIEW_SETTINGS__"';

/**
 * Everything the page loads comes from this service (no CDN, no inline script or style): scripts
 * and styles from `/preview/assets`, data from `/travels`, images from here or `data:` (the
 * favicon). The catalogue's own photos live on other hosts: the page shows a tile instead.
 */
export const PREVIEW_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

@Injectable()
export class PreviewPage {
  private readonly logger = new Logger('Preview');
  private readonly ranking: TravelsRequestSettings;

  constructor(
    private readonly service: ServiceSettings,
    private readonly base: BaseEnv,
    private readonly embedding: EmbeddingSettings,
    ranking: RankingSettings,
    expansion: QueryExpansionSettings,
    @Inject(PREVIEW_ASSETS_DIR) private readonly assetsDir: string,
  ) {
    this.ranking = travelsRequestSettings(ranking, expansion);
  }

  /** The page's HTML with the service's settings written in. */
  async html(): Promise<string> {
    const template = await readFile(join(this.assetsDir, 'index.html'), 'utf8').catch((error: unknown) => {
      throw this.notBuilt(error);
    });
    // `<` escaped, so no value can close the script element it is written into.
    const settings = JSON.stringify(this.settings()).replace(/</g, '\\u003c');
    return template.replace(SETTINGS_PLACEHOLDER, settings);
  }

  /** The path of one of the bundle's files; 404 for any other name. */
  async assetPath(file: string): Promise<string> {
    if (!(PREVIEW_ASSET_FILES as readonly string[]).includes(file)) throw new AppError(ErrorCode.NotFound);
    const path = join(this.assetsDir, file);
    await stat(path).catch((error: unknown) => {
      throw this.notBuilt(error);
    });
    return path;
  }

  settings(): PreviewSettings {
    const tuning = rankingTuningOf({}, this.ranking);
    return {
      service: { name: this.service.APP_NAME, version: this.base.VERSION_TAG ?? null },
      embeddingProvider: this.embedding.EMBEDDING_PROVIDER,
      defaults: {
        rrfVectorWeight: tuning.rrfVectorWeight,
        semanticFloor: tuning.semanticFloor,
        tsvectorFloor: tuning.tsvectorFloor,
        rrfK: tuning.k,
      },
    };
  }

  private notBuilt(error: unknown): AppError {
    this.logger.warn(
      `The preview page is not built in ${this.assetsDir} (${String(error)}): run \`pnpm --filter search build\``,
    );
    return AppError.notFound('The preview page is not built: run `pnpm --filter search build`.');
  }
}
