import { UsersSessionsHats1795435623177 } from './1795435623177-UsersSessionsHats';
import { SeedDefaultOrganization1795435700000 } from './1795435700000-SeedDefaultOrganization';
import { OrganizationsAndMailOutbox1795550986496 } from './1795550986496-OrganizationsAndMailOutbox';
import { ActivationCodes1795551618513 } from './1795551618513-ActivationCodes';
import { Images1795552364077 } from './1795552364077-Images';
import { ToursActivitiesProviders1795552659714 } from './1795552659714-ToursActivitiesProviders';
import { TripsAndCodeWindow1795553959951 } from './1795553959951-TripsAndCodeWindow';
import { OutboxMessageIds1795636328101 } from './1795636328101-OutboxMessageIds';
import { ActivationCodeFormat1795650000000 } from './1795650000000-ActivationCodeFormat';
import { OutboxTraceContext1795700000000 } from './1795700000000-OutboxTraceContext';
import { EmailChanges1795898684629 } from './1795898684629-EmailChanges';
import { ReportedEmailChangeLinks1796000000000 } from './1796000000000-ReportedEmailChangeLinks';
import { EmailCanonical1796100000000 } from './1796100000000-EmailCanonical';
import { ListMultiLineNames1796200000000 } from './1796200000000-ListMultiLineNames';
import { SignupContactConsents1796300000000 } from './1796300000000-SignupContactConsents';

/** Every backend migration, in order. Listed explicitly so a built copy and the sources agree. */
export const backendMigrations: Function[] = [
  UsersSessionsHats1795435623177,
  SeedDefaultOrganization1795435700000,
  OrganizationsAndMailOutbox1795550986496,
  ActivationCodes1795551618513,
  Images1795552364077,
  ToursActivitiesProviders1795552659714,
  TripsAndCodeWindow1795553959951,
  OutboxMessageIds1795636328101,
  ActivationCodeFormat1795650000000,
  OutboxTraceContext1795700000000,
  EmailChanges1795898684629,
  ReportedEmailChangeLinks1796000000000,
  EmailCanonical1796100000000,
  ListMultiLineNames1796200000000,
  SignupContactConsents1796300000000,
];
