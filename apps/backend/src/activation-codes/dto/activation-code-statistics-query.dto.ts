import { UuidField } from '@rt/contracts';

/** `GET /activation-codes/statistics`. */
export class ActivationCodeStatisticsQueryDto {
  @UuidField({ optional: true, description: "Only this organization's codes; absent: all codes." })
  organisation_id?: string;
}
