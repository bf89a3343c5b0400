import { Body, Controller, Get, Post } from '@nestjs/common';
import { TextField } from '@rt/contracts';
import type { ViewingContext } from '../src/access/access';
import { SuperAdminOnly, Viewing, ViewingAs } from '../src/access/access.decorators';
import { formatHat } from '../src/access/hat';

class ProbeBody {
  @TextField({ max: 10 })
  name!: string;
}

const describe = (viewing: ViewingContext) => ({
  hat: formatHat(viewing.hat),
  user_id: viewing.user.id,
  organization_role: viewing.organizationRole,
});

/** Exists only in tests: one route per kind of hat rule, as later features will declare them. */
@Controller('test-viewing')
export class ViewingProbeController {
  @Get('any')
  @ViewingAs()
  any(@Viewing() viewing: ViewingContext) {
    return describe(viewing);
  }

  @Get('organization')
  @ViewingAs('organization')
  organization(@Viewing() viewing: ViewingContext) {
    return describe(viewing);
  }

  @Post('super-admin')
  @SuperAdminOnly()
  superAdmin(@Viewing() viewing: ViewingContext, @Body() body: ProbeBody) {
    return { ...describe(viewing), name: body.name };
  }
}
