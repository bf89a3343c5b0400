import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Public } from '../src/access/access.decorators';

class ProbeStepDto {
  @Matches(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'time must be HH:MM.' })
  time!: string;
}

class ProbeBodyDto {
  @IsString()
  @MaxLength(10)
  name!: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ProbeStepDto)
  steps!: ProbeStepDto[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsInt({ each: true })
  @Min(1, { each: true })
  ids?: number[];
}

class ProbeQueryDto {
  @IsOptional()
  @IsString({ each: true })
  status?: string[];
}

/** Exists only in tests: exercises validation, the query parser and unexpected errors. */
@Public()
@Controller('test-probe')
export class PlatformProbeController {
  @Post('echo')
  echo(@Body() body: ProbeBodyDto): ProbeBodyDto {
    return body;
  }

  @Get('query')
  query(@Query() query: ProbeQueryDto): ProbeQueryDto {
    return query;
  }

  @Get('crash')
  crash(): never {
    throw new Error('secret detail that must not leak');
  }
}
