import { ActivationCode } from './activation-codes/activation-code.entity';
import { ActivationCodeBatchCounter } from './activation-codes/activation-code-batch-counter.entity';
import { ActivationCodeBatch } from './activation-codes/activation-code-batch.entity';
import { ActivationCodeEvent } from './activation-codes/activation-code-event.entity';
import { PersonalAccessToken } from './access-tokens/personal-access-token.entity';
import { Image } from './images/image.entity';
import { OutboxMessage } from './mail/outbox-message.entity';
import { SignupContactConsentToken } from './organizations/contact-consent-token.entity';
import { SignupContactConsent } from './organizations/contact-consent.entity';
import { Membership } from './organizations/membership.entity';
import { Organization } from './organizations/organization.entity';
import { PasswordResetToken } from './password-reset/password-reset-token.entity';
import { ThrottleCounter } from './throttling/throttle-counter.entity';
import { EmailChangeToken } from './users/email-change-token.entity';
import { EmailChange } from './users/email-change.entity';
import { User } from './users/user.entity';
import { ActivityClosure } from './activities/activity-closure.entity';
import { ActivityTag } from './activities/activity-tag.entity';
import { Activity } from './activities/activity.entity';
import { Provider } from './providers/provider.entity';
import { Tag } from './tags/tag.entity';
import { TourStepActivity } from './tours/tour-step-activity.entity';
import { TourStep } from './tours/tour-step.entity';
import { Tour } from './tours/tour.entity';
import { Trip } from './trips/trip.entity';

/** Every backend entity; the app module and the migration CLI read the same list. */
export const backendEntities: Function[] = [
  User,
  Organization,
  Membership,
  SignupContactConsent,
  SignupContactConsentToken,
  PersonalAccessToken,
  PasswordResetToken,
  EmailChange,
  EmailChangeToken,
  ThrottleCounter,
  OutboxMessage,
  Image,
  ActivationCodeBatchCounter,
  ActivationCodeBatch,
  ActivationCode,
  ActivationCodeEvent,
  Tag,
  Provider,
  Activity,
  ActivityTag,
  ActivityClosure,
  Tour,
  TourStep,
  TourStepActivity,
  Trip,
];
