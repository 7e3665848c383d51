-- Ads stored before they had a title (issue 33) get one, so every row of the ad list names its ad.
UPDATE "ad" SET "title" = 'Ad ' || "id" WHERE "title" = '';
