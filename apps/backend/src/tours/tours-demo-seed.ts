import { Injectable } from '@nestjs/common';
import { ActivitiesService } from '../activities/activities.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { ProvidersService } from '../providers/providers.service';
import { TagsService } from '../tags/tags.service';
import type { TagType } from '../tags/tag.entity';
import { toStoredTime } from './step-time';
import { TourStepsService } from './tour-steps.service';
import { ToursService } from './tours.service';

/** What the demo seed created, for the start-up log. */
export interface SeededTours {
  tags: number;
  providers: number;
  activities: number;
  tours: string[];
}

const TAGS: { key: string; type: TagType; fr: string; en: string; de: string; icon: string }[] = [
  {
    key: 'boots',
    type: 'thing_to_bring',
    fr: 'Chaussures de marche',
    en: 'Hiking boots',
    de: 'Wanderschuhe',
    icon: 'hiking-boot',
  },
  {
    key: 'swim',
    type: 'thing_to_bring',
    fr: 'Maillot de bain',
    en: 'Swimsuit',
    de: 'Badeanzug',
    icon: 'swimsuit',
  },
  {
    key: 'vertigo',
    type: 'restriction',
    fr: 'Déconseillé en cas de vertige',
    en: 'Not for vertigo',
    de: 'Nicht bei Höhenangst',
    icon: 'vertigo',
  },
  { key: 'kids', type: 'suitability', fr: 'Familles', en: 'Families', de: 'Familien', icon: 'family' },
  { key: 'mountain', type: 'theme', fr: 'Montagne', en: 'Mountains', de: 'Berge', icon: 'mountain' },
  { key: 'lake', type: 'theme', fr: 'Lac', en: 'Lake', de: 'See', icon: 'lake' },
];

const PROVIDERS = [
  { key: 'zermatt', name: 'Zermatt Mountain Guides', city: 'Zermatt', latitude: 46.0207, longitude: 7.7491 },
  { key: 'sion', name: 'Sion Wine Cellars', city: 'Sion', latitude: 46.2331, longitude: 7.3606 },
  { key: 'montreux', name: 'Lake Geneva Boats', city: 'Montreux', latitude: 46.4312, longitude: 6.9107 },
  {
    key: 'leukerbad',
    name: 'Leukerbad Thermal Baths',
    city: 'Leukerbad',
    latitude: 46.3792,
    longitude: 7.6267,
  },
];

const ACTIVITIES: {
  key: string;
  provider: string;
  name: string;
  capacity: number | null;
  unlimited?: boolean;
  tags: string[];
}[] = [
  {
    key: 'glacier',
    provider: 'zermatt',
    name: 'Gorner glacier walk',
    capacity: 12,
    tags: ['boots', 'vertigo', 'mountain'],
  },
  {
    key: 'gornergrat',
    provider: 'zermatt',
    name: 'Gornergrat railway',
    capacity: null,
    unlimited: true,
    tags: ['kids', 'mountain'],
  },
  { key: 'tasting', provider: 'sion', name: 'Petite Arvine tasting', capacity: 20, tags: [] },
  { key: 'cruise', provider: 'montreux', name: 'Belle Époque cruise', capacity: 150, tags: ['kids', 'lake'] },
  { key: 'chillon', provider: 'montreux', name: 'Chillon castle visit', capacity: null, tags: ['kids'] },
  { key: 'baths', provider: 'leukerbad', name: 'Thermal baths', capacity: 60, tags: ['swim'] },
];

/**
 * The embedded demo run: a few tags, providers at their real coordinates, activities with tags
 * and capacities, and two tours with dated and undated steps, linked to the demo region "Valais
 * Region" when it exists. Only when no provider and no tour exists yet, so it runs once.
 */
@Injectable()
export class ToursDemoSeed {
  constructor(
    private readonly tags: TagsService,
    private readonly providers: ProvidersService,
    private readonly activities: ActivitiesService,
    private readonly tours: ToursService,
    private readonly steps: TourStepsService,
    private readonly organizations: OrganizationsService,
  ) {}

  async run(): Promise<SeededTours | null> {
    if ((await this.providers.anyExists()) || (await this.tours.anyExists())) return null;
    const tagIds = new Map<string, string>();
    if (!(await this.tags.anyExists())) {
      for (const tag of TAGS) {
        tagIds.set(
          tag.key,
          await this.tags.seed({
            type: tag.type,
            nameFr: tag.fr,
            nameEn: tag.en,
            nameDe: tag.de,
            icon: tag.icon,
          }),
        );
      }
    }
    const providerIds = new Map<string, string>();
    for (const p of PROVIDERS) {
      providerIds.set(
        p.key,
        await this.providers.seed({
          name: p.name,
          description: null,
          address: null,
          city: p.city,
          country: 'CH',
          latitude: p.latitude,
          longitude: p.longitude,
          website: null,
          phone: null,
          email: null,
          origin: 'catalog',
          status: 'published',
        }),
      );
    }
    const activityIds = new Map<string, string>();
    for (const a of ACTIVITIES) {
      activityIds.set(
        a.key,
        await this.activities.seed(
          {
            providerId: providerIds.get(a.provider)!,
            name: a.name,
            imageId: null,
            capacity: a.capacity,
            unlimited: a.unlimited ?? false,
          },
          a.tags.flatMap((key) => (tagIds.has(key) ? [tagIds.get(key)!] : [])),
        ),
      );
    }
    const regionId = await this.organizations.findIdByNameAndType('Valais Region', 'region');
    const partnerId =
      (await this.organizations.findIdByNameAndType('Alpine Adventures', 'reseller')) ?? regionId;
    const seededTours: string[] = [];
    if (partnerId) {
      const plan = (...keys: string[]) => keys.map((key) => activityIds.get(key)!);
      const valais = await this.tours.seed({
        name: 'Valais in three days',
        color: '#C8102E',
        status: 'active',
        partnerOrganizationId: partnerId,
        regionOrganizationId: regionId,
      });
      await this.steps.seed(
        valais,
        { dayNumber: 1, time: toStoredTime('10:00') },
        plan('glacier', 'gornergrat'),
      );
      await this.steps.seed(valais, { dayNumber: 2, time: toStoredTime('14:30') }, plan('tasting'));
      await this.steps.seed(valais, { dayNumber: 3, time: toStoredTime('09:00') }, plan('baths'));
      await this.steps.seed(valais, { dayNumber: null, time: null }, plan('chillon'));
      seededTours.push('Valais in three days');
      const lake = await this.tours.seed({
        name: 'Lake Geneva weekend',
        color: '#1F6FB2',
        status: 'pending',
        partnerOrganizationId: partnerId,
        regionOrganizationId: regionId,
      });
      await this.steps.seed(lake, { dayNumber: 1, time: toStoredTime('11:00') }, plan('cruise', 'chillon'));
      await this.steps.seed(lake, { dayNumber: null, time: toStoredTime('16:00') }, plan('chillon'));
      seededTours.push('Lake Geneva weekend');
    }
    return {
      tags: tagIds.size,
      providers: providerIds.size,
      activities: activityIds.size,
      tours: seededTours,
    };
  }
}
