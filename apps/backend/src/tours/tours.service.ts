import { Injectable } from '@nestjs/common';
import { LIST_PAGE_RULES, paginated, Paginated, toPage } from '@rt/contracts';
import { AppError } from '@rt/errors';
import { ActivitiesService } from '../activities/activities.service';
import { Transactions } from '../database/transactions';
import { OrganizationsService } from '../organizations/organizations.service';
import { containsPattern } from '../providers/dto/search-field';
import { CreateTourDto } from './dto/create-tour.dto';
import { TourDetailsResponseDto } from './dto/tour-details.response';
import { TourResponseDto } from './dto/tour.response';
import { ToursQueryDto } from './dto/tours-query.dto';
import { UpdateTourDto } from './dto/update-tour.dto';
import { tourChanges, tourOrganizationProblems } from './tour-changes';
import { StepView, TourStepsRepository } from './tour-steps.repository';
import { toTourDetails, toTourResponse } from './tour.mapper';
import { TourFields, ToursRepository } from './tours.repository';

export const tourNotFound = () => AppError.notFound('Tour not found.');

/** Tours (super-admin): listing, creation (pending), updates, deletion and duplication. */
@Injectable()
export class ToursService {
  constructor(
    private readonly tours: ToursRepository,
    private readonly steps: TourStepsRepository,
    private readonly activities: ActivitiesService,
    private readonly organizations: OrganizationsService,
    private readonly transactions: Transactions,
  ) {}

  /** `GET /tour`: newest first, without steps; per_page capped silently at 100. */
  async list(query: ToursQueryDto): Promise<Paginated<TourResponseDto>> {
    const page = toPage(query, LIST_PAGE_RULES);
    const [tours, total] = await this.tours.findPage(
      {
        namePattern: query.search !== undefined ? containsPattern(query.search) : null,
        statuses: query.status ?? null,
        partnerOrganizationId: query.partner_organization_id ?? null,
      },
      page,
    );
    return paginated(tours.map(toTourResponse), total, page);
  }

  /** `GET /tour/{id}`: the tour with its steps and their plans, in three queries whatever its size. */
  async details(id: string): Promise<TourDetailsResponseDto> {
    const tour = await this.tours.findById(id);
    if (!tour) throw tourNotFound();
    const steps = await this.steps.findOfTour(id);
    return toTourDetails(tour, steps, await this.activitiesOf(steps));
  }

  /** `POST /tour`: a pending tour; the partner must exist and the region be a region (else 422). */
  async create(dto: CreateTourDto): Promise<TourResponseDto> {
    await this.checkOrganizations(dto.partner_organization_id, dto.region_organization_id);
    const tour = await this.tours.create({
      name: dto.name,
      color: dto.color,
      status: 'pending',
      partnerOrganizationId: dto.partner_organization_id,
      regionOrganizationId: dto.region_organization_id ?? null,
    });
    return toTourResponse(tour);
  }

  /** `PUT /tour/{id}`: the fields sent; an absent region keeps the link, null clears it. */
  async update(id: string, dto: UpdateTourDto): Promise<TourResponseDto> {
    if (!(await this.tours.findById(id))) throw tourNotFound();
    await this.checkOrganizations(dto.partner_organization_id, dto.region_organization_id);
    if (!(await this.tours.update(id, tourChanges(dto)))) throw tourNotFound();
    const tour = await this.tours.findById(id);
    if (!tour) throw tourNotFound();
    return toTourResponse(tour);
  }

  /** `DELETE /tour/{id}`: the tour, its steps and their plans; the activities stay. */
  async delete(id: string): Promise<void> {
    if (!(await this.tours.delete(id))) throw tourNotFound();
  }

  /**
   * `POST /tour/{id}/duplicate`: a pending copy with the same name, color, partner and region
   * link, and copies of the steps naming the same activities. One transaction.
   */
  async duplicate(id: string): Promise<TourDetailsResponseDto> {
    const copyId = await this.transactions.run(async () => {
      const source = await this.tours.findByIdForUpdate(id);
      if (!source) throw tourNotFound();
      const copy = await this.tours.create({
        name: source.name,
        color: source.color,
        status: 'pending',
        partnerOrganizationId: source.partnerOrganizationId,
        regionOrganizationId: source.regionOrganizationId,
      });
      await this.steps.copySteps(source.id, copy.id);
      return copy.id;
    });
    return this.details(copyId);
  }

  /** Creates a tour for the demo seed or the benchmark and answers its id. */
  async seed(fields: TourFields): Promise<string> {
    return (await this.tours.create(fields)).id;
  }

  /** Whether any tour exists (the demo seed). */
  anyExists(): Promise<boolean> {
    return this.tours.exists();
  }

  /** The resources of every activity the steps name, in one query. */
  private activitiesOf(steps: StepView[]) {
    return this.activities.findResources([...new Set(steps.flatMap((s) => s.activityIds))]);
  }

  private async checkOrganizations(partnerId: string | undefined, regionId: string | null | undefined) {
    const partnerType = partnerId !== undefined ? await this.organizations.findType(partnerId) : undefined;
    const regionType =
      regionId !== undefined && regionId !== null ? await this.organizations.findType(regionId) : undefined;
    const problems = tourOrganizationProblems(partnerType, regionType);
    AppError.throwIfInvalid(problems);
  }
}
